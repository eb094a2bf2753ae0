import { binomial } from './binomial.js';
import { mulberry32 } from './prng.js';

export interface BootstrapInterval {
  /** The observed mean paired difference (head - base). */
  delta: number;
  low: number;
  high: number;
}

/** Per-question differences as the distinct values they take (ascending) and how many questions take each. */
export interface DistinctValues {
  values: readonly number[];
  counts: readonly number[];
}

/** Counts distinct values: differences of 0/1 correctness take 3, of reciprocal ranks a few dozen. */
export class ValueCounter {
  private readonly counts = new Map<number, number>();
  n = 0;
  sum = 0;

  add(value: number): void {
    this.counts.set(value, (this.counts.get(value) ?? 0) + 1);
    this.n++;
    this.sum += value;
  }

  distinct(): DistinctValues {
    const values = [...this.counts.keys()].sort((a, b) => a - b);
    return { values, counts: values.map((v) => this.counts.get(v)!) };
  }
}

/**
 * Paired bootstrap percentile interval for the mean of per-question differences (head - base): resample the n
 * questions with replacement `resamples` times, take the mean difference of each resample, and return the
 * (1 - confidence) / 2 and (1 + confidence) / 2 quantiles (linear interpolation). Resampling questions keeps each
 * question's two outcomes together (the pairing).
 *
 * A resample of n questions is a draw of how many times each distinct difference comes out: Multinomial(n,
 * count_k / n), drawn as one binomial per distinct value given the ones before. The distribution of the resampled
 * mean is the same as drawing n questions one by one, at a cost of resamples × distinct values rather than
 * resamples × n. `observed` is the mean of the differences, as summed by the caller. Null when there is no pair.
 */
export function bootstrapMean(distinct: DistinctValues, observed: number, options: { resamples: number; seed: number; confidence?: number }): BootstrapInterval | null {
  const { values, counts } = distinct;
  const n = counts.reduce((a, b) => a + b, 0);
  if (n === 0) return null;
  const confidence = options.confidence ?? 0.95;
  const random = mulberry32(options.seed);
  const means = new Float64Array(options.resamples);
  const last = values.length - 1;
  for (let r = 0; r < options.resamples; r++) {
    let left = n; // questions of the resample not drawn yet
    let pool = n; // questions of the distinct values not visited yet
    let sum = 0;
    for (let k = 0; k < last && left > 0; k++) {
      const c = binomial(random, left, counts[k]! / pool);
      sum += c * values[k]!;
      left -= c;
      pool -= counts[k]!;
    }
    sum += left * values[last]!;
    means[r] = sum / n;
  }
  means.sort();
  return { delta: observed, low: quantile(means, (1 - confidence) / 2), high: quantile(means, (1 + confidence) / 2) };
}

/** The paired bootstrap of a list of differences (see bootstrapMean). Null when there is no pair. */
export function pairedBootstrap(diffs: readonly number[], options: { resamples: number; seed: number; confidence?: number }): BootstrapInterval | null {
  const counter = new ValueCounter();
  for (const d of diffs) counter.add(d);
  return bootstrapMean(counter.distinct(), counter.n === 0 ? 0 : counter.sum / counter.n, options);
}

/** Quantile of sorted values, linear interpolation between closest ranks (type 7). */
export function quantile(sorted: ArrayLike<number>, q: number): number {
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  const a = sorted[lo]!;
  const b = sorted[hi]!;
  return a + (b - a) * (pos - lo);
}
