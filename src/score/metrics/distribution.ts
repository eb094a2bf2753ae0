import { bin, nice, quantileSorted, ticks } from 'd3-array';
import type { Distribution } from '../../model/metrics.js';

type Histogram = Distribution['histogram'];

const CHUNK = 4096;

/**
 * A histogram whose values are added one at a time and binned by d3's `bin` a chunk at a time (bins are
 * independent of the data once domain and thresholds are fixed), so memory stays one chunk:
 * counts[i] holds the values in [edges[i], edges[i+1]), the last bin closed.
 */
export class BinCounter {
  private readonly binner;
  private readonly buffer: number[] = [];
  readonly edges: number[];
  readonly counts: number[];

  /** d3 `bin` over [lo, hi] with these thresholds. */
  constructor(lo: number, hi: number, thresholds: number[]) {
    this.binner = bin().domain([lo, hi]).thresholds(thresholds);
    const bins = this.binner([]);
    this.edges = [lo, ...bins.map((b) => b.x1!)];
    this.counts = bins.map(() => 0);
  }

  /** ~`count` nice bins over `domain`, rounded outwards (one bin when it is a single value). */
  static nice(domain: readonly [number, number], count = 10): BinCounter {
    const [lo, hi] = domain[0] === domain[1] ? domain : nice(domain[0], domain[1], count);
    return new BinCounter(lo, hi, lo === hi ? [] : ticks(lo, hi, count).filter((t) => t > lo && t < hi));
  }

  add(value: number): void {
    this.buffer.push(value);
    if (this.buffer.length >= CHUNK) this.flush();
  }

  result(): Histogram {
    this.flush();
    return { edges: this.edges, counts: this.counts };
  }

  private flush(): void {
    if (this.buffer.length === 0) return;
    this.binner(this.buffer).forEach((b, i) => (this.counts[i]! += b.length));
    this.buffer.length = 0;
  }
}

/**
 * Equal-width bins over `domain` (by default the values' extent; rounded outwards to nice numbers by d3's `nice`,
 * ~`count` bins at d3 `ticks`); one bin [v, v] when every value is v; no bins without a domain.
 */
export function histogram(values: ArrayLike<number>, domain: readonly [number, number] | undefined = extentOf(values), count = 10): Histogram {
  if (domain === undefined) return { edges: [], counts: [] };
  const counter = BinCounter.nice(domain, count);
  for (let i = 0; i < values.length; i++) counter.add(values[i]!);
  return counter.result();
}

/** Running min and max. */
export class Extent {
  lo = Infinity;
  hi = -Infinity;
  add(v: number): void {
    if (v < this.lo) this.lo = v;
    if (v > this.hi) this.hi = v;
  }
  get(): [number, number] | undefined {
    return this.lo > this.hi ? undefined : [this.lo, this.hi];
  }
}

export function extentOf(values: ArrayLike<number>): [number, number] | undefined {
  const extent = new Extent();
  for (let i = 0; i < values.length; i++) extent.add(values[i]!);
  return extent.get();
}

/** Count, percentiles (d3 `quantile`: linear interpolation, R-7) and a histogram over `domain`. */
export const distribution = (values: ArrayLike<number>, domain?: readonly [number, number]): Distribution => sortedDistribution(Float64Array.from(values).sort(), domain);

/** distribution() of values sorted ascending already (no copy is made). */
export function sortedDistribution(sorted: Float64Array, domain?: readonly [number, number]): Distribution {
  // d3 reads only `length` and indexes: a typed array will do
  const at = (p: number) => (sorted.length === 0 ? null : quantileSorted(sorted as unknown as number[], p) ?? null);
  return {
    count: sorted.length,
    percentiles: { p10: at(0.1), p25: at(0.25), p50: at(0.5), p75: at(0.75), p90: at(0.9) },
    histogram: histogram(sorted, domain ?? extentOf(sorted)),
  };
}
