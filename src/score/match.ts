import type { AnswerItem } from '../client/response.js';
import type { Expectations } from '../dataset/question.js';
import { normalizeText } from './normalize.js';

/** Whether an answer meets every expectation given (any one of the values of each). */
export function matches(expected: Expectations, item: AnswerItem): boolean {
  if (expected.answer && !expected.answer.some((v) => normalizeText(v) === normalizeText(item.answer))) return false;
  if (expected.sequence && !expected.sequence.some((v) => Number(v) === item.sequence_number)) return false;
  if (expected.label) {
    const label = item.label === undefined ? undefined : normalizeText(item.label);
    if (!expected.label.some((v) => normalizeText(v) === label)) return false;
  }
  return true;
}

export const hasExpectations = (expected: Expectations): boolean =>
  expected.answer !== undefined || expected.sequence !== undefined || expected.label !== undefined;
