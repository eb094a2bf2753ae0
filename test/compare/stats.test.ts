import { describe, expect, it } from 'vitest';
import { pairedBootstrap, quantile } from '../../src/compare/stats/bootstrap.js';
import { holm } from '../../src/compare/stats/holm.js';
import { mcnemarExact } from '../../src/compare/stats/mcnemar.js';
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
