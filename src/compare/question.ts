import type { QuestionResult } from '../model/report.js';
import { top1 } from '../score/result.js';
import type { QuestionSide } from './schema.js';

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
