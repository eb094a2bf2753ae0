import { top1 } from '../score/result.js';
import type { Confusion, Interval } from './metrics-schema.js';
import type { QuestionResult } from './schema.js';
import type { ReportData } from './source.js';

export const DIMENSIONS = ['category', 'language', 'tag'] as const;
export type Dimension = (typeof DIMENSIONS)[number];

/** One slice as the readable reports show it. `low`/`high` are null when the report has no metrics. */
export interface SliceView {
  key: string;
  total: number;
  /** top-1 accuracy over labeled questions without error */
  accuracy: number | null;
  low: number | null;
  high: number | null;
  /** wrong + abstained + fallback_missed */
  failures: number;
  errors: number;
}

const FAILED = new Set(['wrong', 'abstained', 'fallback_missed']);
export const isFailure = (r: QuestionResult): boolean => FAILED.has(r.outcome);

// Without metrics (an older report) a question's category is its top-1 answer's.
const keysOf = (r: QuestionResult, dim: Dimension): string[] =>
  dim === 'language' ? [r.language] : dim === 'tag' ? r.tags : [top1(r)?.category ?? '(category unknown)'];

type Group = { total: number; ok: number; labeled: number; failures: number; errors: number };

/** Without metrics: every dimension counted in one pass, memory per slice key. */
function fromResults(results: Iterable<QuestionResult>): Record<Dimension, SliceView[]> {
  const groups = Object.fromEntries(DIMENSIONS.map((d) => [d, new Map<string, Group>()])) as Record<Dimension, Map<string, Group>>;
  for (const r of results) {
    for (const dim of DIMENSIONS) {
      for (const key of keysOf(r, dim)) {
        let g = groups[dim].get(key);
        if (!g) groups[dim].set(key, (g = { total: 0, ok: 0, labeled: 0, failures: 0, errors: 0 }));
        g.total++;
        if (r.outcome === 'error') g.errors++;
        else if (r.outcome !== 'unlabeled') g.labeled++;
        if (r.outcome === 'correct' || r.outcome === 'fallback_ok') g.ok++;
        if (isFailure(r)) g.failures++;
      }
    }
  }
  const views = (dim: Dimension): SliceView[] =>
    [...groups[dim]].map(([key, g]) => ({ key, total: g.total, accuracy: g.labeled ? g.ok / g.labeled : null, low: null, high: null, failures: g.failures, errors: g.errors }));
  return { category: views('category'), language: views('language'), tag: views('tag') };
}

const fromInterval = (i: Interval) => ({ accuracy: i.value, low: i.low, high: i.high });

const worstFirst = (list: SliceView[]): SliceView[] =>
  list.sort((a, b) => (a.accuracy ?? 2) - (b.accuracy ?? 2) || b.total - a.total || (a.key < b.key ? -1 : 1));

/**
 * The slices of every dimension, each worst top-1 accuracy first (then the bigger slice); slices with no labeled
 * question last. From the metrics, else counted in one pass over the results.
 */
export function allSlices({ head, results }: ReportData): Record<Dimension, SliceView[]> {
  const m = head.metrics;
  const all = m
    ? Object.fromEntries(DIMENSIONS.map((dim) => [dim, m.breakdowns[dim].map((s): SliceView => ({
        key: s.key, total: s.total, ...fromInterval(s.top1Accuracy),
        failures: s.outcomes.wrong + s.outcomes.abstained + s.outcomes.fallback_missed, errors: s.outcomes.error,
      }))])) as Record<Dimension, SliceView[]>
    : fromResults(results);
  for (const dim of DIMENSIONS) worstFirst(all[dim]);
  return all;
}

const firstExpected = (r: QuestionResult): string =>
  r.expected.label?.[0] ?? r.expected.sequence?.[0] ?? r.expected.answer?.[0] ?? 'any knowledge answer';

/** Most frequent (expected → got) pairs among wrong answers: from metrics, else counted from the results. */
export function confusions({ head, results }: ReportData, limit = 20): Confusion[] {
  if (head.metrics) return head.metrics.confusions.slice(0, limit);
  const byPair = new Map<string, Confusion>();
  for (const r of results) {
    const top = top1(r);
    if (r.outcome !== 'wrong' || !top) continue;
    const expected = firstExpected(r);
    const got = top.label ?? String(top.sequence_number);
    const key = JSON.stringify([expected, got]);
    const c = byPair.get(key) ?? { expected, got, count: 0, examples: [] };
    c.count++;
    if (c.examples.length < 5) c.examples.push(r.id);
    byPair.set(key, c);
  }
  return [...byPair.values()].sort((a, b) => b.count - a.count || (a.expected < b.expected ? -1 : 1)).slice(0, limit);
}

/** The first `limit` failing questions (failures and errors) and how many there are, in one pass. */
export function firstFailing(results: Iterable<QuestionResult>, limit: number): { first: QuestionResult[]; count: number } {
  const first: QuestionResult[] = [];
  let count = 0;
  for (const r of results) {
    if (!isFailure(r) && r.outcome !== 'error') continue;
    if (count++ < limit) first.push(r);
  }
  return { first, count };
}
