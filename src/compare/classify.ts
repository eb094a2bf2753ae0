import type { QuestionResult } from '../model/report.js';
import { isCorrect, isJudged } from '../model/outcome.js';
import { describeExpected } from '../report/describe.js';
import { sideOf } from './question.js';
import type { CoverageChange, EditedQuestion, ErrorChange, QuestionChange, QuestionEdit } from './schema.js';

/** A matched question: the same id in both reports. */
export interface Pair {
  base: QuestionResult;
  head: QuestionResult;
}

/** An expectation in a canonical form: fields in a fixed order, alternatives sorted, absent fields left out. */
const canonical = (expected: QuestionResult['expected']): string =>
  JSON.stringify(
    Object.keys(expected)
      .sort()
      .map((key) => {
        const value = expected[key as keyof typeof expected];
        return [key, Array.isArray(value) ? [...value].sort() : value];
      })
      .filter(([, value]) => value !== undefined),
  );

/** What differs between two versions of a question kept under one id; empty when it is the same question. */
export function questionEdits(base: QuestionResult, head: QuestionResult): QuestionEdit[] {
  const edits: QuestionEdit[] = [];
  if (base.question !== head.question) edits.push('question');
  if (base.language !== head.language) edits.push('language');
  if (canonical(base.expected) !== canonical(head.expected)) edits.push('expectation');
  return edits;
}

/** The class of a common question, if it is listed in one: exactly one of these, or none (unchanged). */
export type PairClass = 'errors' | 'broken' | 'fixed' | 'top1Changed';

/**
 * The class of a common question: an error on either side, broken, fixed, top-1 changed (a different top-1 answer,
 * correct on both sides or on neither), or undefined (unchanged). Besides, `drift`: the same top-1 answer (sequence
 * number) on both sides whose score moved by more than `scoreEpsilon`. Pure.
 */
export function classifyPair({ base, head }: Pair, scoreEpsilon: number): { cls: PairClass | undefined; drift: boolean; scoreDelta: number | null } {
  const b = base.top1Index === null ? undefined : base.answers[base.top1Index];
  const h = head.top1Index === null ? undefined : head.answers[head.top1Index];
  const scoreDelta = b && h ? h.answer_score - b.answer_score : null;
  if (base.outcome === 'error' || head.outcome === 'error') return { cls: 'errors', drift: false, scoreDelta };
  const sameTop = b?.sequence_number === h?.sequence_number;
  const judged = isJudged(base.outcome) && isJudged(head.outcome);
  const was = judged && isCorrect(base.outcome);
  const now = judged && isCorrect(head.outcome);
  const cls = was && !now ? 'broken' : !was && now ? 'fixed' : !sameTop ? 'top1Changed' : undefined;
  return { cls, drift: sameTop && scoreDelta !== null && Math.abs(scoreDelta) > scoreEpsilon, scoreDelta };
}

/** A compared question as listed: both sides' outcome and top-1 answer, and the top-1 score change. */
export function change({ base, head }: Pair, category: string): QuestionChange {
  const b = sideOf(base);
  const h = sideOf(head);
  return { id: base.id, question: head.question, tags: head.tags, category, base: b, head: h, scoreDelta: b.top1 && h.top1 ? h.top1.score - b.top1.score : null };
}

export const errorChange = (pair: Pair, category: string): ErrorChange => {
  const baseError = pair.base.outcome === 'error';
  const headError = pair.head.outcome === 'error';
  return { ...change(pair, category), side: baseError && headError ? 'both' : baseError ? 'base' : 'head' };
};

/** A question on one side only. */
export const coverage = (r: QuestionResult, category: string): CoverageChange => ({ id: r.id, question: r.question, tags: r.tags, category, outcome: r.outcome });

/** A question edited between the runs, with both versions. */
export const edited = (pair: Pair, edits: QuestionEdit[], category: string): EditedQuestion => ({
  ...change(pair, category),
  edits,
  baseQuestion: pair.base.question,
  expected: { base: describeExpected(pair.base.expected), head: describeExpected(pair.head.expected) },
});
