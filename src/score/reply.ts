import type { AskResult } from '../client/ask.js';
import { QuestionError } from '../client/errors.js';
import type { QuestionResult } from '../model/report.js';

/**
 * The reply a result recorded, as the client handed it to the run: the answers (those at or above `floor`), or the
 * error. What judging a result again starts from (rescore, and a resumed run checking its journal).
 */
export function replyOf(r: QuestionResult, floor?: number): AskResult {
  if (r.error) return { ok: false, error: new QuestionError(r.error.kind, r.error.message, r.error.status), attempts: r.attempts, latencyMs: r.latencyMs };
  const answers = floor === undefined ? r.answers : r.answers.filter((a) => a.answer_score >= floor);
  return {
    ok: true,
    response: { answers, ...(r.postProcessedAnswer !== undefined ? { post_processed_answer: r.postProcessedAnswer } : {}) },
    attempts: r.attempts,
    latencyMs: r.latencyMs ?? 0,
  };
}
