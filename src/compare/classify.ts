import type { QuestionResult } from '../model/report.js';
import { isCorrect, isJudged } from '../model/outcome.js';
import { sideOf } from './question.js';
import type { Comparison, CoverageChange, QuestionChange } from './schema.js';

export type Classified = Comparison['questions'];

/** A matched question: the same id in both reports. */
export interface Pair {
  base: QuestionResult;
  head: QuestionResult;
}

/** Matches questions by id (never by position); ids on one side only are coverage changes. */
export function matchById(base: readonly QuestionResult[], head: readonly QuestionResult[]): { pairs: Pair[]; added: QuestionResult[]; removed: QuestionResult[] } {
  const headById = new Map(head.map((r) => [r.id, r]));
  const baseIds = new Set(base.map((r) => r.id));
  const pairs: Pair[] = [];
  const removed: QuestionResult[] = [];
  for (const b of base) {
    const h = headById.get(b.id);
    if (h === undefined) removed.push(b);
    else pairs.push({ base: b, head: h });
  }
  return { pairs, added: head.filter((r) => !baseIds.has(r.id)), removed };
}

const change = ({ base, head }: Pair): QuestionChange => {
  const b = sideOf(base);
  const h = sideOf(head);
  return { id: base.id, question: head.question, tags: head.tags, base: b, head: h, scoreDelta: b.top1 && h.top1 ? h.top1.score - b.top1.score : null };
};

const coverage = (r: QuestionResult): CoverageChange => ({ id: r.id, question: r.question, tags: r.tags, outcome: r.outcome });

/**
 * Sorts every question into its class. Per pair, exactly one of: error (on either side), broken, fixed,
 * changed (a different top-1 answer, correct on both sides or on neither), or unchanged (not listed). Score drift is listed
 * besides: the same top-1 answer (sequence number) on both sides whose score moved by more than `scoreEpsilon`.
 */
export function classify(base: readonly QuestionResult[], head: readonly QuestionResult[], scoreEpsilon: number): Classified {
  const { pairs, added, removed } = matchById(base, head);
  const out: Classified = { broken: [], fixed: [], changed: [], drift: [], added: added.map(coverage), removed: removed.map(coverage), errors: [] };
  for (const pair of pairs) {
    const c = change(pair);
    const baseError = pair.base.outcome === 'error';
    const headError = pair.head.outcome === 'error';
    if (baseError || headError) {
      out.errors.push({ ...c, side: baseError && headError ? 'both' : baseError ? 'base' : 'head' });
      continue;
    }
    const sameTop = c.base.top1?.sequence_number === c.head.top1?.sequence_number;
    const judged = isJudged(pair.base.outcome) && isJudged(pair.head.outcome);
    const was = judged && isCorrect(pair.base.outcome);
    const now = judged && isCorrect(pair.head.outcome);
    if (was && !now) out.broken.push(c);
    else if (!was && now) out.fixed.push(c);
    else if (!sameTop) out.changed.push(c);
    if (sameTop && c.scoreDelta !== null && Math.abs(c.scoreDelta) > scoreEpsilon) out.drift.push(c);
  }
  return out;
}
