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
}

/** The figures an editor reads first: in-scope accuracy, out-of-scope recall, error rate and MRR, with their intervals. */
export function headline(m: Metrics): Figure[] {
  const i = m.intervals;
  return [
    { name: 'in-scope accuracy', kind: 'share', ...i.answerableAccuracy, over: `${i.answerableAccuracy.n} in-scope questions` },
    { name: 'out-of-scope recall', kind: 'share', ...i.outOfScopeRecall, over: `${i.outOfScopeRecall.n} out-of-scope questions` },
    { name: 'error rate', kind: 'share', ...i.rates.error, over: `${i.rates.error.n} questions` },
    { name: 'MRR', kind: 'score', ...m.rank.mrrInterval, over: `${m.rank.questions} ranked questions` },
  ];
}

const format = (f: Figure, v: number | null, digits: number): string =>
  v === null ? 'n/a' : f.kind === 'share' ? `${(v * 100).toFixed(digits)}%` : v.toFixed(3);

/** `90.7%`, `0.932`, `n/a`. */
export const figureValue = (f: Figure): string => format(f, f.value, 1);

/** `89.8–91.5%`, `0.925–0.938`, or '' without an interval. */
export const figureInterval = (f: Figure): string =>
  f.low === null || f.high === null ? '' : f.kind === 'share' ? `${(f.low * 100).toFixed(1)}–${format(f, f.high, 1)}` : `${f.low.toFixed(3)}–${f.high.toFixed(3)}`;
