import { bin, nice, quantileSorted, ticks } from 'd3-array';
import type { Distribution } from '../../report/metrics-schema.js';

type Histogram = Distribution['histogram'];

/**
 * Equal-width bins over [lo, hi] (rounded outwards to nice numbers by d3's `nice`, ~`count` bins at d3 `ticks`):
 * counts[i] holds the values in [edges[i], edges[i+1]), the last bin closed. One bin [v, v] when every value is v.
 */
export function histogram(values: readonly number[], domain: readonly [number, number] | undefined = extentOf(values), count = 10): Histogram {
  if (domain === undefined) return { edges: [], counts: [] };
  const [lo, hi] = domain[0] === domain[1] ? domain : nice(domain[0], domain[1], count);
  const inner = lo === hi ? [] : ticks(lo, hi, count).filter((t) => t > lo && t < hi);
  const bins = bin().domain([lo, hi]).thresholds(inner)(values);
  return { edges: [lo, ...bins.map((b) => b.x1!)], counts: bins.map((b) => b.length) };
}

export function extentOf(values: readonly number[]): [number, number] | undefined {
  if (values.length === 0) return undefined;
  let lo = values[0]!;
  let hi = lo;
  for (const v of values) {
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  return [lo, hi];
}

/** Count, percentiles (d3 `quantile`: linear interpolation, R-7) and a histogram over `domain`. */
export function distribution(values: readonly number[], domain?: readonly [number, number]): Distribution {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number) => (sorted.length === 0 ? null : quantileSorted(sorted, p) ?? null);
  return {
    count: values.length,
    percentiles: { p10: at(0.1), p25: at(0.25), p50: at(0.5), p75: at(0.75), p90: at(0.9) },
    histogram: histogram(values, domain ?? extentOf(values)),
  };
}
