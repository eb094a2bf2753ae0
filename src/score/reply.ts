import { QuestionError, type AskResult } from '../model/ask-result.js';
import type { QuestionResult } from '../model/report.js';

/**
 * The reply a result recorded, as the client handed it to the run: the answers (those at or above `floor`), or the
 * error, and what was sent and kept of a non-json reply. What judging a result again starts from (rescore, and a
 * resumed run checking its journal).
 */
export function replyOf(r: QuestionResult, floor?: number): AskResult {
  const asked = { ...(r.sent ? { sent: r.sent } : {}), ...(r.reply ? { reply: r.reply } : {}) };
  if (r.error) return { ok: false, error: new QuestionError(r.error.kind, r.error.message, { status: r.error.status }), attempts: r.attempts, latencyMs: r.latencyMs, ...asked };
  // a text reply has no scores (all 0): no floor acts on it
  const answers = floor === undefined || r.reply?.output === 'text' ? r.answers : r.answers.filter((a) => a.answer_score >= floor);
  return {
    ok: true,
    response: { answers, ...(r.postProcessedAnswer !== undefined ? { post_processed_answer: r.postProcessedAnswer } : {}) },
    attempts: r.attempts,
    latencyMs: r.latencyMs ?? 0,
    ...asked,
  };
}
