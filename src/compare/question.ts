import type { QuestionResult } from '../report/schema.js';
import { top1 } from '../score/result.js';
import type { QuestionSide } from './schema.js';

/** Counted in top1Accuracy's numerator. */
export const isCorrect = (r: Pick<QuestionResult, 'outcome'>): boolean => r.outcome === 'correct' || r.outcome === 'fallback_ok';

/** Counted in top1Accuracy's denominator: labeled and without error. */
export const isJudged = (r: Pick<QuestionResult, 'outcome'>): boolean => r.outcome !== 'unlabeled' && r.outcome !== 'error';

/** The side of a question shown in compare reports. */
export function sideOf(r: QuestionResult): QuestionSide {
  const top = top1(r);
  return {
    outcome: r.outcome,
    top1:
      top === undefined
        ? null
        : { answer: top.answer, sequence_number: top.sequence_number, label: top.label ?? null, category: top.category ?? null, score: top.answer_score },
    ...(r.rank !== undefined ? { rank: r.rank } : {}),
    error: r.error === null ? null : r.error.message,
  };
}

/** The category of the answer the question expects: its first matching answer (by rank), else its top-1 when correct. */
export function expectedCategory(r: QuestionResult): string | undefined {
  if (typeof r.rank === 'number') return r.answers[r.rank - 1]?.category;
  return isCorrect(r) ? top1(r)?.category : undefined;
}
