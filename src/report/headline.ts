import type { Coverage } from '../model/coverage.js';
import type { Metrics } from '../model/metrics.js';

/** One headline figure with its 95% interval. */
export interface Figure {
  name: string;
  /** A share (0..1) shown as a percentage, or a mean rank score shown with 3 decimals. */
  kind: 'share' | 'score';
  value: number | null;
  low: number | null;
  high: number | null;
  /** What it is counted over, in words. */
  over: string;
  /** The section of report.html that details it. */
  section?: string;
}

/**
 * The figures an editor reads first: in-scope accuracy, out-of-scope recall, error rate and MRR, with their intervals;
 * then, when the run knew its knowledge base, the share of its entries the questions test (a count, no interval).
 */
export function headline(m: Metrics, coverage?: Coverage): Figure[] {
  const i = m.intervals;
  return [
    { name: 'in-scope accuracy', kind: 'share', ...i.answerableAccuracy, over: `${i.answerableAccuracy.n} in-scope questions` },
    { name: 'out-of-scope recall', kind: 'share', ...i.outOfScopeRecall, over: `${i.outOfScopeRecall.n} out-of-scope questions` },
    { name: 'error rate', kind: 'share', ...i.rates.error, over: `${i.rates.error.n} questions` },
    { name: 'MRR', kind: 'score', ...m.rank.mrrInterval, over: `${m.rank.questions} ranked questions` },
    ...(coverage ? [{ name: 'KB coverage', kind: 'share' as const, value: coverage.share, low: null, high: null, over: `${coverage.entries} knowledge-base entries, ${coverage.tested} tested`, section: 'coverage' }] : []),
  ];
}

const format = (f: Figure, v: number | null, digits: number): string =>
  v === null ? 'n/a' : f.kind === 'share' ? `${(v * 100).toFixed(digits)}%` : v.toFixed(3);

/** `90.7%`, `0.932`, `n/a`. */
export const figureValue = (f: Figure): string => format(f, f.value, 1);

/** `89.8–91.5%`, `0.925–0.938`, or '' without an interval. */
export const figureInterval = (f: Figure): string =>
  f.low === null || f.high === null ? '' : f.kind === 'share' ? `${(f.low * 100).toFixed(1)}–${format(f, f.high, 1)}` : `${f.low.toFixed(3)}–${f.high.toFixed(3)}`;
