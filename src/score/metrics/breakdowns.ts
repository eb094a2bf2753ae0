import type { Slice } from '../../report/metrics-schema.js';
import type { QuestionResult } from '../../report/schema.js';
import { OUTCOMES, type Outcome } from '../outcome.js';
import { scoreOrder } from '../rank.js';
import { normalizeText } from '../normalize.js';
import { rankMetrics } from './rank-metrics.js';
import { wilson } from './wilson.js';

/** Slice key of rows without an expected category: out-of-scope rows, and rows whose category is unknown. */
export const OUT_OF_SCOPE = '(out of scope)';
export const NO_CATEGORY = '(none)';

/** Every headline metric over one slice of the results. */
export function slice(key: string, results: readonly QuestionResult[]): Slice {
  const outcomes = Object.fromEntries(OUTCOMES.map((o) => [o, 0])) as Record<Outcome, number>;
  for (const r of results) outcomes[r.outcome]++;
  const total = results.length;
  return {
    key,
    total,
    outcomes,
    top1Accuracy: wilson(outcomes.correct + outcomes.fallback_ok, total - outcomes.unlabeled - outcomes.error),
    answerableAccuracy: wilson(outcomes.correct, outcomes.correct + outcomes.wrong + outcomes.abstained),
    rank: rankMetrics(results),
    errorRate: total === 0 ? 0 : outcomes.error / total,
  };
}

/** Groups results by one or more keys each (a row with two tags is in both slices), sorted by key. */
export function sliceBy(results: readonly QuestionResult[], keysOf: (r: QuestionResult) => readonly string[]): Slice[] {
  const groups = new Map<string, QuestionResult[]>();
  for (const r of results) {
    for (const key of new Set(keysOf(r))) {
      const group = groups.get(key);
      if (group) group.push(r);
      else groups.set(key, [r]);
    }
  }
  return [...groups.keys()].sort().map((key) => slice(key, groups.get(key)!));
}

const isPlain = (v: string): boolean => !v.startsWith('re:') && !v.startsWith('contains:');

/**
 * The expected category of each result, for the category breakdown:
 * 1. the row's expected_category as written (alternatives joined by " || ");
 * 2. else the category of the first matching answer in its own list (at `rank`);
 * 3. else the category seen anywhere in the run on an answer with the row's expected sequence number or label;
 * 4. else "(out of scope)" for expect=fallback rows and "(none)" for the rest.
 */
export function categoryKeys(results: readonly QuestionResult[]): (r: QuestionResult) => string[] {
  const bySequence = new Map<number, string>();
  const byLabel = new Map<string, string>();
  for (const r of results) {
    for (const a of r.answers) {
      if (a.category === undefined || a.category === '') continue;
      if (!bySequence.has(a.sequence_number)) bySequence.set(a.sequence_number, a.category);
      if (a.label !== undefined && !byLabel.has(normalizeText(a.label))) byLabel.set(normalizeText(a.label), a.category);
    }
  }
  return (r) => {
    const e = r.expected;
    if (e.category) return [e.category.join(' || ')];
    if (r.rank != null) {
      const category = r.answers[scoreOrder(r.answers)[r.rank - 1]!]?.category;
      if (category) return [category];
    }
    for (const s of e.sequence ?? []) {
      const category = bySequence.get(Number(s));
      if (category) return [category];
    }
    for (const l of (e.label ?? []).filter(isPlain)) {
      const category = byLabel.get(normalizeText(l));
      if (category) return [category];
    }
    return [e.expect === 'fallback' ? OUT_OF_SCOPE : NO_CATEGORY];
  };
}
