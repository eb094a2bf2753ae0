import { compileValue, valueProblem } from './expectations.js';
import { quote } from './quote.js';

/** What a turn check reads of a reply: its post-processed answer, and its top-1 answer's dialog flag. */
export interface TurnReply {
  postProcessedAnswer: string | undefined;
  /** The top-1 answer; undefined for an empty list. */
  top: { is_dialog_in_progress: boolean } | undefined;
}

/** The value of a check that says: absent (no post-processed answer; no dialog in progress). */
export const NONE = 'none';

/** How one turn check is written in a dataset, read from a reply, judged and put in words. */
export interface TurnCheck {
  /** The dataset column (CSV header or key of a JSONL turn). */
  column: `expect_${string}`;
  /** How reports name it: `dialog`. */
  noun: string;
  /** `text`: a text with the matcher prefixes (`contains:`, `re:`), or `none`; else the values allowed. */
  values: 'text' | readonly string[];
  /** What of the reply it compares, as text (undefined: absent). */
  of: (reply: TurnReply) => string | undefined;
}

/**
 * The one table of turn checks: what a turn of a conversation may require of the service's state besides the
 * answer (the expectation fields, src/model/expectations.ts, are about the top-1 answer item). The dataset reader,
 * the result's `expected` and `checks`, the judge (src/score/checks.ts), the words in reports and the conversation
 * metrics all read it. A new check is a compile error where a `Record<TurnCheckKey, …>` lacks it.
 */
export const TURN_CHECKS = {
  /** Against the response's `post_processed_answer` (e.g. a repeated question); `none`: must be absent. */
  post_processed: { column: 'expect_post_processed', noun: 'post-processed answer', values: 'text', of: (r) => r.postProcessedAnswer },
  /** Against the top-1's `is_dialog_in_progress`: `in_progress` or `none` (an empty list is none). */
  dialog: { column: 'expect_dialog', noun: 'dialog', values: ['in_progress', NONE], of: (r) => (r.top?.is_dialog_in_progress ? 'in_progress' : NONE) },
} as const satisfies Record<string, TurnCheck>;

export type TurnCheckKey = keyof typeof TURN_CHECKS;
export const TURN_CHECK_KEYS = Object.keys(TURN_CHECKS) as TurnCheckKey[];

/** The checks a turn gives, each with its one value as written. */
export type TurnCheckValues = { [K in TurnCheckKey]?: string };

/** Which checks of a turn passed (only those it gives, and only when it got a response). */
export type TurnCheckResults = { [K in TurnCheckKey]?: boolean };

const allowed = (check: TurnCheck): string => (check.values === 'text' ? `a text, contains:..., re:... or ${NONE}` : check.values.join(' or '));

/** Why a dataset value cannot be a check's value, or undefined when it can. */
export function checkValueProblem(key: TurnCheckKey, value: string): string | undefined {
  const check: TurnCheck = TURN_CHECKS[key];
  if (check.values === 'text') {
    const bad = value === NONE ? undefined : valueProblem(value, 're:already answer(ed)?');
    return bad === undefined ? undefined : `${check.column} ${quote(value)} ${bad}`;
  }
  return check.values.includes(value) ? undefined : `${check.column} is ${quote(value)} (expected ${allowed(check)})`;
}

/** Compiles a check's value into a test of what `of` reads (the value was checked with checkValueProblem). */
export function compileCheck(key: TurnCheckKey, value: string): (actual: string | undefined) => boolean {
  const check: TurnCheck = TURN_CHECKS[key];
  if (check.values !== 'text') return (actual) => actual === value;
  if (value === NONE) return (actual) => actual === undefined;
  const test = compileValue(value);
  return (actual) => test(actual);
}

/** A check's value in words: `dialog in_progress`, `post-processed answer "contains:already"`, `no post-processed answer`. */
export function describeCheck(key: TurnCheckKey, value: string): string {
  const check: TurnCheck = TURN_CHECKS[key];
  if (check.values !== 'text') return `${check.noun} ${value}`;
  return value === NONE ? `no ${check.noun}` : `${check.noun} "${value}"`;
}

/** A row's turn checks in words, in table order: `dialog in_progress; no post-processed answer`. */
export const describeChecks = (checks: TurnCheckValues): string =>
  TURN_CHECK_KEYS.flatMap((k) => (checks[k] === undefined ? [] : [describeCheck(k, checks[k])])).join('; ');

export const hasChecks = (checks: TurnCheckValues | undefined): boolean => checks !== undefined && TURN_CHECK_KEYS.some((k) => checks[k] !== undefined);
