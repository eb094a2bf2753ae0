import { EXPECTATION_FIELDS, EXPECTATION_KEYS_BY_PRECEDENCE, hasExpectations, type ExpectationKey, type Expectations } from '../model/expectations.js';
import type { Outcome } from '../model/outcome.js';
import type { Expect } from '../model/question.js';
import type { ReportAnswer } from '../model/report.js';
import { describeFailedCheck, type FailedCheck } from './checks.js';
import { truncate } from '../util/text.js';
import type { FieldMatcher, Matcher } from './match.js';
import { NO_ENTRY } from '../model/answer.js';

/** What `explain` needs of a judged question. */
export interface Verdict {
  outcome: Outcome;
  expect: Expect;
  expected: Expectations;
  matcher: Matcher;
  /** The answers as judged. */
  answers: readonly ReportAnswer[];
  /**
   * The same answers as the report keeps them, when they differ (a secret the service echoed, masked): the reason
   * quotes these. @default answers
   */
  shown?: readonly ReportAnswer[];
  /** Index of the top-1 in `answers`, -1 without one. */
  top: number;
  /** 1-based rank (in score order) of the first answer meeting the expectations, null when none does. */
  rank: number | null;
  /** `answers` indices in score order. */
  order: readonly number[];
  /** A turn's checks that failed (src/score/checks.ts). */
  failedChecks?: readonly FailedCheck[];
  /** The answers were read from a text reply: no scores to quote, and an answer without a known entry is named by its text. */
  fromText?: boolean;
}

const quote = (text: string): string => `"${truncate(text, 60)}"`;
const score = (v: number): string => String(Math.round(v * 1000) / 1000);

/**
 * An answer in words: `#14 "payments" (score 61.2)`; without its score: `#14 "payments"`. Read from a text reply: no
 * score, and the text itself when its entry is not known (`"Sorry, I don't know…"`).
 */
const nameOf = (a: ReportAnswer, withScore = true, fromText = false): string =>
  fromText && a.sequence_number === NO_ENTRY
    ? `the text ${quote(a.answer)}`
    : `#${a.sequence_number}${a.label ? ` ${quote(a.label)}` : ''}${withScore && !fromText ? ` (score ${score(a.answer_score)})` : ''}`;

/** What the top-1 holds in place of a field it fails, when its name does not show it: `category "Shop"`, `no tags`. */
function actual(f: FieldMatcher, top: ReportAnswer, shown: ReportAnswer, fromText = false): string | undefined {
  if (f.key === 'sequence' || (f.key === 'label' && top.label)) return undefined; // in the answer's name
  if (f.key === 'answer' && fromText && top.sequence_number === NO_ENTRY) return undefined; // the name is the text
  const field = EXPECTATION_FIELDS[f.key];
  const noun = f.key === 'tag' ? 'tags' : field.noun;
  const values = field.of(shown).filter((v): v is string => v !== undefined && v !== '');
  return values.length === 0 ? `no ${noun}` : `${noun} ${values.map(quote).join(', ')}`;
}

/** A field's expected values: `label "billing" or "invoices"`, `sequence 12`. */
function wanted(key: ExpectationKey, values: readonly string[]): string {
  const field = EXPECTATION_FIELDS[key];
  return `${field.noun} ${values.map((v) => (field.kind === 'sequence' ? v : quote(v))).join(' or ')}`;
}

const everythingWanted = (expected: Expectations): string =>
  EXPECTATION_KEYS_BY_PRECEDENCE.flatMap((k) => (expected[k] ? [wanted(k, expected[k])] : [])).join(' and ');

/** How a refusal looks: `the floor answer (score 12.3)`, `a small-talk answer #1 "greeting" (score 20)`, `an empty answer list`. */
function refusal(top: ReportAnswer | undefined, fromText = false): string {
  if (top === undefined) return 'an empty answer list';
  if (top.is_dummy_floor_answer) return fromText ? `the floor answer ${quote(top.answer)}` : `the floor answer (score ${score(top.answer_score)})`;
  return `a small-talk answer ${nameOf(top, true, fromText)}`;
}

/** Where the expected answer sits when the top-1 is not it. */
function whereExpected(v: Verdict): string {
  if (!hasExpectations(v.expected)) return '';
  if (v.rank !== null) return `; the expected answer ${nameOf((v.shown ?? v.answers)[v.order[v.rank - 1]!]!, false, v.fromText)} is at rank ${v.rank}`;
  return v.answers.length > 1 ? '; no answer in the list meets the expectations' : '';
}

/**
 * Why a question did not pass, in one sentence a person reads in a report, e.g.
 * `expected label "billing"; top-1 is #14 "payments" (score 61.2); the expected answer #12 "billing" is at rank 3`;
 * a turn's failed checks follow, or make the whole reason of `check_failed`.
 * Undefined for the outcomes that need no explanation (correct, fallback ok, unlabeled, error: its message says it;
 * skipped: the conversation says which turn ended in error, see src/score/conversation.ts).
 */
export function explain(v: Verdict): string | undefined {
  const answer = explainAnswer(v);
  const checks = v.failedChecks?.length ? v.failedChecks.map(describeFailedCheck).join('; ') : undefined;
  if (checks === undefined || (answer === undefined && v.outcome !== 'check_failed')) return answer;
  return answer === undefined ? checks : `${answer}; and ${checks}`;
}

function explainAnswer(v: Verdict): string | undefined {
  const top = v.top < 0 ? undefined : v.answers[v.top];
  const shownTop = v.top < 0 ? undefined : (v.shown ?? v.answers)[v.top];
  switch (v.outcome) {
    case 'wrong': {
      if (top === undefined || shownTop === undefined) return undefined; // judge gives wrong only to a top-1
      const failed = v.matcher.fields.filter((f) => !f.test(top));
      const holds = failed.flatMap((f) => actual(f, top, shownTop, v.fromText) ?? []);
      return `expected ${failed.map((f) => wanted(f.key, f.values)).join(' and ')}; top-1 is ${nameOf(shownTop, true, v.fromText)}${holds.length ? `, with ${holds.join(', ')}` : ''}${whereExpected(v)}`;
    }
    case 'abstained': {
      const what = hasExpectations(v.expected) ? everythingWanted(v.expected) : 'a knowledge answer';
      return `expected ${what}; the service refused with ${refusal(shownTop, v.fromText)}${whereExpected(v)}`;
    }
    case 'fallback_missed':
      return `expected a refusal (out of scope); top-1 is ${shownTop === undefined ? 'missing' : nameOf(shownTop, true, v.fromText)}`;
    case 'check_failed': // the answer passed: the failed checks say it all
    case 'correct':
    case 'fallback_ok':
    case 'unlabeled':
    case 'error':
    case 'skipped':
      return undefined;
    default: {
      const unexplained: never = v.outcome; // a new outcome must say how it is explained
      return unexplained;
    }
  }
}
