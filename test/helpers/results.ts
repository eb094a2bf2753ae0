import type { QuestionResult, ReportAnswer } from '../../src/model/report.js';

/** A report answer: a knowledge answer unless flags say otherwise. */
export const ans = (seq: number, score: number, over: Partial<ReportAnswer> = {}): ReportAnswer => ({
  answer: `answer ${seq}`,
  sequence_number: seq,
  answer_score: score,
  tags: [],
  label: `label-${seq}`,
  is_agent_answer: true,
  is_dummy_answer: false,
  is_dummy_floor_answer: false,
  is_suggestion_answer: false,
  is_international_question: false,
  is_dialog_in_progress: false,
  is_dialogue_answer: false,
  delay: -1,
  ...over,
});

let next = 0;

/** A question result; top1Index follows the scores (earlier on ties), as toResult sets it. */
export function res(over: Partial<QuestionResult> & Pick<QuestionResult, 'outcome'>): QuestionResult {
  const answers = over.answers ?? [];
  let top: number | null = null;
  answers.forEach((a, i) => {
    if (top === null || a.answer_score > answers[top]!.answer_score) top = i;
  });
  return {
    id: `q${++next}`,
    line: next + 1,
    question: 'q',
    language: 'en',
    tags: [],
    expected: { expect: null },
    top1Index: top,
    answers,
    unordered: false,
    latencyMs: 10,
    attempts: 1,
    error: over.outcome === 'error' ? { kind: 'network', message: 'ECONNRESET' } : null,
    rank: null,
    margin: null,
    ...over,
  };
}
