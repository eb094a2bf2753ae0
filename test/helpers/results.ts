import type { QuestionResult, ReportAnswer } from '../../src/model/report.js';
import { compileMatcher } from '../../src/score/match.js';
import { scoreOrder } from '../../src/score/rank.js';
import { explain } from '../../src/score/reason.js';

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

/** Numbers the results of each test file from q1 again (test/setup/each-file.ts): golden files hold their ids. */
export const resetIds = (): void => void (next = 0);

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

/** The result with the reason a run gives it (src/score/reason.ts), from its own expectations and answers. */
export function withReason(r: QuestionResult): QuestionResult {
  const matcher = compileMatcher(r.expected);
  const reason = explain({ outcome: r.outcome, expect: r.expected.expect, expected: r.expected, matcher, answers: r.answers, top: r.top1Index ?? -1, rank: r.rank ?? null, order: scoreOrder(r.answers), ...(r.reply?.output === 'text' ? { fromText: true } : {}) });
  const { id, line, question, language, tags, expected, outcome, ...rest } = r;
  return { id, line, question, language, tags, expected, outcome, ...(reason !== undefined ? { reason } : {}), ...rest };
}
