import { mulberry32 } from './prng.js';

export interface BootstrapInterval {
  /** The observed mean paired difference (head - base). */
  delta: number;
  low: number;
  high: number;
}

/**
 * Paired bootstrap percentile interval for the mean of per-question differences (head - base):
 * resample the questions with replacement `resamples` times, take the mean difference of each
 * resample, and return the (1 - confidence) / 2 and (1 + confidence) / 2 quantiles (linear interpolation).
 * Resampling questions keeps each question's two outcomes together (the pairing). Null when there is no pair.
 */
export function pairedBootstrap(diffs: readonly number[], options: { resamples: number; seed: number; confidence?: number }): BootstrapInterval | null {
  const n = diffs.length;
  if (n === 0) return null;
  const confidence = options.confidence ?? 0.95;
  const random = mulberry32(options.seed);
  const means = new Float64Array(options.resamples);
  for (let r = 0; r < options.resamples; r++) {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += diffs[Math.floor(random() * n)]!;
    means[r] = sum / n;
  }
  means.sort();
  const delta = diffs.reduce((a, b) => a + b, 0) / n;
  return { delta, low: quantile(means, (1 - confidence) / 2), high: quantile(means, (1 + confidence) / 2) };
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
