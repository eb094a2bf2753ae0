import type { AnswerItem } from '../model/answer.js';
import { hasExpectations } from '../model/expectations.js';
import { OUTCOME_CLASSES, type Outcome } from '../model/outcome.js';
import type { Question } from '../model/question.js';
import type { CheckVerdict } from './checks.js';
import { compileMatcher, type Matcher } from './match.js';

/** A dummy (small talk) or floor answer: the engine did not answer from its knowledge. */
export const isNonAnswer = (item: AnswerItem | undefined): boolean =>
  item === undefined || item.is_dummy_answer || item.is_dummy_floor_answer;

/**
 * The outcome of an answered question, judged on its top-1 answer (undefined when the list was empty).
 * A matching top-1 is correct whatever its flags: a greeting may rightly expect the small-talk answer.
 * With expect=answer and no expectations, any knowledge answer counts as correct.
 * `matcher` is the question's compiled expectations (compiled here when not given).
 */
export function judge(question: Pick<Question, 'expect' | 'expected'>, top: AnswerItem | undefined, matcher?: Matcher): Outcome {
  if (question.expect === null) return 'unlabeled';
  if (question.expect === 'fallback') return isNonAnswer(top) ? 'fallback_ok' : 'fallback_missed';
  if (top === undefined) return 'abstained';
  if (hasExpectations(question.expected) ? (matcher ?? compileMatcher(question.expected))(top) : !isNonAnswer(top)) return 'correct';
  return isNonAnswer(top) ? 'abstained' : 'wrong';
}

/**
 * A turn's outcome: its answer's (judge), unless the answer passed, or nothing was asked of it, and one of its turn
 * checks failed: then `check_failed`. A failing answer keeps its outcome (its reason names the failed checks too).
 */
export const withChecks = (outcome: Outcome, checks: CheckVerdict | undefined): Outcome =>
  checks !== undefined && checks.failed.length > 0 && !OUTCOME_CLASSES[outcome].failing ? 'check_failed' : outcome;

/**
 * The outcome of a result's answer alone, its turn checks aside (withChecks undone): a `check_failed` turn's answer
 * passed, so it was `correct` (expect=answer), `fallback_ok` (expect=fallback) or `unlabeled` (nothing expected of
 * it); every other outcome is its answer's. What the score distributions and the floor replay judge: a floor acts
 * on answers, not on dialogue checks.
 */
export function answerOutcome(r: { outcome: Outcome; expected: { expect: Question['expect'] } }): Outcome {
  if (r.outcome !== 'check_failed') return r.outcome;
  return r.expected.expect === 'answer' ? 'correct' : r.expected.expect === 'fallback' ? 'fallback_ok' : 'unlabeled';
}
