import type { ReportAnswer } from './report.js';

// The answers of a reply as the client hands them on (src/client/response.ts reads them) and the score stage judges
// them: the contract between the two, so that neither imports the other.

/** One answer item of spec 2.4: the service's values coerced to numbers, booleans and tag lists, as a report keeps it. */
export type AnswerItem = ReportAnswer;

/** A reply of spec 2.3, read: its answers and its post-processed answer; unknown fields are kept. */
export interface AnswerResponse {
  post_processed_answer?: string | undefined;
  answers: AnswerItem[];
  [field: string]: unknown;
}

/** The sequence number of a text answer whose entry is not known (no knowledge base, or none of its entries has it). */
export const NO_ENTRY = -1;

/** Index of the top-1 answer: the highest answer_score, the earlier one on ties, whatever order the server used. */
export function topIndex(answers: readonly AnswerItem[]): number {
  let best = -1;
  for (let i = 0; i < answers.length; i++) {
    if (best < 0 || answers[i]!.answer_score > answers[best]!.answer_score) best = i;
  }
  return best;
}

/** Whether the list is in non-increasing score order, as the engine should send it. */
export function isDescending(answers: readonly AnswerItem[]): boolean {
  for (let i = 1; i < answers.length; i++) {
    if (answers[i]!.answer_score > answers[i - 1]!.answer_score) return false;
  }
  return true;
}
