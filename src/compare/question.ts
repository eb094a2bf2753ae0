import type { QuestionResult } from '../model/report.js';
import { isCorrect } from '../model/outcome.js';
import { matchedAnswer, top1 } from '../score/result.js';
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

/** The category of the answer the question expects: its first matching answer (`rank` counts in score order), else its top-1 when correct. */
export function expectedCategory(r: QuestionResult): string | undefined {
  if (typeof r.rank === 'number') return matchedAnswer(r)?.category;
  return isCorrect(r.outcome) ? top1(r)?.category : undefined;
}
