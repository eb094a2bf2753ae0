import type { AnswerItem } from '../client/response.js';
import type { Question } from '../dataset/question.js';
import { compileMatcher, hasExpectations, type Matcher } from './match.js';

export const OUTCOMES = ['correct', 'wrong', 'abstained', 'fallback_ok', 'fallback_missed', 'unlabeled', 'error'] as const;
export type Outcome = (typeof OUTCOMES)[number];

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

/** Every outcome counted 0, in OUTCOMES order (so reports list them the same way every time). */
export const zeroCounts = (): Record<Outcome, number> => Object.fromEntries(OUTCOMES.map((o) => [o, 0])) as Record<Outcome, number>;
