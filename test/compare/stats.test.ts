import { describe, expect, it } from 'vitest';
import { binomial } from '../../src/compare/stats/binomial.js';
import { bootstrapMean, pairedBootstrap, quantile, ValueCounter } from '../../src/compare/stats/bootstrap.js';
import { holm } from '../../src/compare/stats/holm.js';
import { mcnemarExact, mcnemarMinBroken } from '../../src/compare/stats/mcnemar.js';
import { mulberry32, streamSeed } from '../../src/compare/stats/prng.js';

/** Equal to within a relative 1e-12 (the tail is summed in log space, so the last bits may differ). */
const expectRelClose = (actual: number, expected: number) => expect(Math.abs(actual - expected) / expected).toBeLessThan(1e-12);

describe('exact McNemar', () => {
  it('matches hand-computed binomial tails', () => {
    // n = 10: P(X <= 1) = (1 + 10) / 1024; two-sided doubles it
    expectRelClose(mcnemarExact(1, 9), 0.021484375);
    expectRelClose(mcnemarExact(9, 1), 0.021484375);
    // n = 5, k = 0: 2 / 32
    expectRelClose(mcnemarExact(0, 5), 0.0625);
    // n = 6, k = 1: 2 * (1 + 6) / 64
    expectRelClose(mcnemarExact(1, 5), 0.21875);
    // n = 12, k = 2: 2 * (1 + 12 + 66) / 4096
    expectRelClose(mcnemarExact(2, 10), 158 / 4096);
  });

  it('is 1 without discordant pairs or when they balance, capped at 1', () => {
    expect(mcnemarExact(0, 0)).toBe(1);
    expect(mcnemarExact(4, 4)).toBe(1);
    expect(mcnemarExact(4, 5)).toBe(1);
  });

  it('stays finite and exact for large counts', () => {
    // n = 2000, k = 0: 2 * 2^-2000 underflows to 0, but nothing is NaN
    expect(mcnemarExact(0, 2000)).toBe(0);
    const p = mcnemarExact(480, 520);
    expect(p).toBeGreaterThan(0.2);
    expect(p).toBeLessThan(0.23);
    expect(() => mcnemarExact(-1, 2)).toThrow(RangeError);
  });
});

describe('the power of exact McNemar: the fewest broken pairs that are significant', () => {
  it('is the smallest b > c with p < alpha, computed by hand for small counts', () => {
    // c = 0: p = 2 / 2^b; 5 broken give 0.0625, 6 give 0.03125
    expect(mcnemarMinBroken(0, 0.05)).toBe(6);
    // c = 0 at alpha 0.01: 2 / 2^7 = 0.0156, 2 / 2^8 = 0.0078
    expect(mcnemarMinBroken(0, 0.01)).toBe(8);
    // c = 1: p(7, 1) = 2 * 9 / 256 = 0.0703; p(8, 1) = 2 * 10 / 512 = 0.0391
    expect(mcnemarMinBroken(1, 0.05)).toBe(8);
    for (const [c, alpha] of [[5, 0.05], [100, 0.05], [3000, 0.001]] as const) {
      const b = mcnemarMinBroken(c, alpha);
      expect(mcnemarExact(b, c)).toBeLessThan(alpha);
      expect(mcnemarExact(b - 1, c)).toBeGreaterThanOrEqual(alpha);
    }
    expect(() => mcnemarMinBroken(-1, 0.05)).toThrow(RangeError);
    expect(() => mcnemarMinBroken(0, 1)).toThrow(RangeError);
  });
});

describe('Holm correction', () => {
  it('matches a hand-computed case', () => {
    // sorted: 0.01*4 = 0.04, 0.02*3 = 0.06, 0.03*2 = 0.06 (running max), 0.5*1 = 0.5
    expect(holm([0.03, 0.5, 0.01, 0.02]).map((p) => Number(p.toFixed(10)))).toEqual([0.06, 0.5, 0.04, 0.06]);
    expect(holm([0.4, 0.6])).toEqual([0.8, 0.8]);
    expect(holm([])).toEqual([]);
  });
});

describe('paired bootstrap', () => {
  const diffs = [...Array<number>(30).fill(0), ...Array<number>(10).fill(-1)];

  it('contains the observed delta and is reproducible with the seed', () => {
    const a = pairedBootstrap(diffs, { resamples: 500, seed: 7 })!;
    expect(a.delta).toBeCloseTo(-0.25, 12);
    expect(a.low).toBeLessThanOrEqual(a.delta);
    expect(a.high).toBeGreaterThanOrEqual(a.delta);
    expect(a.high).toBeLessThan(0);
    expect(pairedBootstrap(diffs, { resamples: 500, seed: 7 })).toEqual(a);
    expect(pairedBootstrap(diffs, { resamples: 500, seed: 8 })).not.toEqual(a);
  });

  it('is null without pairs and degenerate without change', () => {
    expect(pairedBootstrap([], { resamples: 10, seed: 1 })).toBeNull();
    expect(pairedBootstrap([0, 0, 0], { resamples: 10, seed: 1 })).toEqual({ delta: 0, low: 0, high: 0 });
  });

  it('quantile interpolates linearly', () => {
    expect(quantile([0, 10], 0.25)).toBe(2.5);
    expect(quantile([1, 2, 3, 4, 5], 0.5)).toBe(3);
  });

  it('the PRNG is deterministic per seed and stream', () => {
    const r = mulberry32(1);
    const first = [r(), r(), r()];
    const again = mulberry32(1);
    expect([again(), again(), again()]).toEqual(first);
    expect(first.every((x) => x >= 0 && x < 1)).toBe(true);
    expect(streamSeed(1, 'a')).not.toBe(streamSeed(1, 'b'));
  });
});

describe('binomial draws', () => {
  const logChoose = (n: number, k: number): number => {
    let s = 0;
    for (let i = 1; i <= k; i++) s += Math.log(n - k + i) - Math.log(i);
    return s;
  };

  // inversion (n·p <= 30), BTPE (n·p > 30), p > 1/2 mirrored, a million trials
  for (const [n, p] of [[20, 0.3], [1000, 0.4], [200, 0.85], [1_000_000, 0.5]] as const) {
    it(`Binomial(${n}, ${p}): mean, variance and, where it is small, the distribution`, () => {
      const random = mulberry32(11);
      const draws = 100_000;
      const freq = new Map<number, number>();
      let sum = 0;
      let squares = 0;
      for (let i = 0; i < draws; i++) {
        const x = binomial(random, n, p);
        expect(Number.isInteger(x) && x >= 0 && x <= n).toBe(true);
        sum += x;
        squares += x * x;
        freq.set(x, (freq.get(x) ?? 0) + 1);
      }
      const mean = sum / draws;
      const variance = squares / draws - mean * mean;
      const sd = Math.sqrt(n * p * (1 - p));
      // 5 standard errors of the mean; 5% on the variance (its standard error is 0.45% here)
      expect(Math.abs(mean - n * p)).toBeLessThan((5 * sd) / Math.sqrt(draws));
      expect(Math.abs(variance / (sd * sd) - 1)).toBeLessThan(0.05);
      if (n <= 1000) {
        let distance = 0;
        for (let k = 0; k <= n; k++) distance += Math.abs((freq.get(k) ?? 0) / draws - Math.exp(logChoose(n, k) + k * Math.log(p) + (n - k) * Math.log(1 - p)));
        expect(distance / 2).toBeLessThan(0.02); // total variation to the exact pmf
      }
    });
  }

  it('is 0 or n at the ends', () => {
    const random = mulberry32(1);
    expect([binomial(random, 0, 0.5), binomial(random, 10, 0), binomial(random, 10, 1)]).toEqual([0, 0, 10]);
  });
});

describe('paired bootstrap by distinct values, against resampling question by question', () => {
  /** The implementation before resamples were drawn by distinct value: n uniform draws per resample. */
  function byQuestion(diffs: readonly number[], resamples: number, seed: number): { low: number; high: number } {
    const n = diffs.length;
    const random = mulberry32(seed);
    const means = new Float64Array(resamples);
    for (let r = 0; r < resamples; r++) {
      let sum = 0;
      for (let i = 0; i < n; i++) sum += diffs[Math.floor(random() * n)]!;
      means[r] = sum / n;
    }
    means.sort();
    return { low: quantile(means, 0.025), high: quantile(means, 0.975) };
  }
  const repeat = (pattern: number[], n: number) => Array.from({ length: n }, (_, i) => pattern[i % pattern.length]!);
  const cases: [string, number[]][] = [
    ['accuracy differences (-1, 0, 1)', [...Array<number>(300).fill(0), ...Array<number>(40).fill(-1), ...Array<number>(60).fill(1)]],
    ['reciprocal-rank differences', repeat([0, 0, 0, 0.5, -0.5, 1, -1, 1 / 3 - 1, 0.25, 1 - 0.5], 500)],
    ['a small set', [...Array<number>(30).fill(0), ...Array<number>(10).fill(-1)]],
  ];

  for (const [name, diffs] of cases) {
    it(`${name}: the same interval within Monte Carlo error`, () => {
      const n = diffs.length;
      const mean = diffs.reduce((a, b) => a + b, 0) / n;
      const se = Math.sqrt(diffs.reduce((a, d) => a + (d - mean) ** 2, 0) / n / n);
      const resamples = 40_000;
      const old = byQuestion(diffs, resamples, 5);
      const now = pairedBootstrap(diffs, { resamples, seed: 5 })!;
      // with 40,000 resamples each bound's Monte Carlo error is about 0.02 standard errors; the means move in steps of 1/n
      expect(Math.abs(now.low - old.low)).toBeLessThanOrEqual(0.1 * se + 1 / n);
      expect(Math.abs(now.high - old.high)).toBeLessThanOrEqual(0.1 * se + 1 / n);
      expect(now.delta).toBe(mean);
    });
  }

  it('draws a million pairs as fast as a dozen, reproducibly', () => {
    const counter = new ValueCounter();
    for (const [value, count] of [[-1, 20_000], [0, 950_000], [1, 30_000]] as const) for (let i = 0; i < count; i++) counter.add(value);
    const started = performance.now();
    const a = bootstrapMean(counter.distinct(), counter.sum / counter.n, { resamples: 2000, seed: 3 })!;
    expect(performance.now() - started).toBeLessThan(1000);
    expect(a.delta).toBeCloseTo(0.01, 12);
    // sd of the mean difference: sqrt((0.05 - 0.01^2) / 1e6) = 0.000223
    expect(a.low).toBeGreaterThan(0.01 - 3 * 0.000223);
    expect(a.low).toBeLessThan(0.01 - 1 * 0.000223);
    expect(bootstrapMean(counter.distinct(), counter.sum / counter.n, { resamples: 2000, seed: 3 })).toEqual(a);
  });
});
