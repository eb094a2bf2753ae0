import { describeExpectations } from '../model/expectations.js';
import { OUTCOME_CLASSES } from '../model/outcome.js';
import type { QuestionResult } from '../model/report.js';
import type { LabelAnswer, LabelItem } from '../pages/label/data.js';
import { scoreOrder } from '../score/rank.js';
import { closeness, countOf } from './order.js';

/** The longest answer text a page shows. */
const TEXT_CUT = 400;

/**
 * Whether a result is a question to label: a single question (a turn of a conversation is not) that got a response
 * and is unlabeled; with `wrong`, also one judged failing (wrong, abstained, fallback missed), whose label may be
 * the mistake.
 */
export function isToLabel(r: QuestionResult, wrong: boolean): boolean {
  if (r.conversation !== undefined) return false;
  const c = OUTCOME_CLASSES[r.outcome];
  return r.outcome === 'unlabeled' || (wrong && c.failing && !c.turnsOnly);
}

const cut = (text: string): string => (text.length > TEXT_CUT ? `${text.slice(0, TEXT_CUT)}…` : text);

/** A result as the page shows it: its answers in score order (the rank a digit picks), flags, the closeness that ordered it. */
export function itemOf(r: QuestionResult, floor: number | undefined): LabelItem {
  const answers: LabelAnswer[] = scoreOrder(r.answers).map((i, k) => {
    const a = r.answers[i]!;
    const flags: LabelAnswer['flags'] = [...(a.is_dummy_answer ? (['dummy'] as const) : []), ...(a.is_dummy_floor_answer ? (['floor'] as const) : []), ...(a.is_suggestion_answer ? (['suggestion'] as const) : [])];
    return {
      rank: k + 1,
      sequence: a.sequence_number,
      ...(a.label !== undefined ? { label: a.label } : {}),
      ...(a.category !== undefined ? { category: a.category } : {}),
      score: a.answer_score,
      text: cut(a.answer),
      flags,
      pickable: !a.is_dummy_floor_answer,
    };
  });
  const close = closeness(answers.filter((a) => a.pickable).map((a) => a.score), floor);
  const expected = r.expected.expect === 'fallback' ? 'should be refused' : describeExpectations(r.expected);
  return {
    id: r.id,
    line: r.line,
    question: r.question,
    language: r.language,
    count: countOf(r.meta?.['count']),
    outcome: OUTCOME_CLASSES[r.outcome].label,
    ...(expected !== '' ? { expected } : {}),
    answers,
    closeness: Number.isFinite(close) ? close : null,
  };
}
