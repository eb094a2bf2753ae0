import type { Interval } from '../../model/metrics.js';

/** z for a two-sided 95% interval. */
const Z95 = 1.959963984540054;

/**
 * A rate with its 95% Wilson score interval:
 * (p + z²/2n ± z·sqrt(p(1-p)/n + z²/4n²)) / (1 + z²/n). All null when n = 0.
 */
export function wilson(successes: number, n: number, z = Z95): Interval {
  if (n === 0) return { value: null, low: null, high: null, successes, n };
  const p = successes / n;
  const z2 = z * z;
  const denom = 1 + z2 / n;
  const centre = p + z2 / (2 * n);
  const spread = z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return { value: p, low: Math.max(0, (centre - spread) / denom), high: Math.min(1, (centre + spread) / denom), successes, n };
}
