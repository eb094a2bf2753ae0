import { describe, expect, it } from 'vitest';
import { allocate, drawSample } from '../../src/sample/draw.js';

/** Questions asked 100, 99, ... times: most asked first, as drawSample takes them. */
const asked = (n: number): number[] => Array.from({ length: n }, (_, i) => 100 - i);

describe('drawSample', () => {
  it('the most asked half (rounded up), then the rest of --size uniformly from the others', () => {
    const draw = drawSample({ asked: asked(10) }, 5, 1);
    expect(draw.head).toBe(3);
    expect(draw.tail).toBe(2);
    expect(draw.chosen.slice(0, 3)).toEqual([0, 1, 2]);
    expect(draw.chosen).toHaveLength(5);
    expect(new Set(draw.chosen).size).toBe(5);
    expect(draw.chosen.slice(3).every((i) => i >= 3 && i < 10)).toBe(true);
    expect(draw.chosen).toEqual([...draw.chosen].sort((a, b) => a - b));
  });

  it('the same seed draws the same; another seed, another tail', () => {
    const input = { asked: asked(1000) };
    expect(drawSample(input, 40, 7)).toEqual(drawSample(input, 40, 7));
    const tails = [1, 2, 3, 4].map((seed) => drawSample(input, 40, seed).chosen.slice(20).join());
    expect(new Set(tails).size).toBe(4);
  });

  it('the tail is uniform: over 4,000 seeds each of 8 questions is drawn about as often (2 of 8 each time)', () => {
    const times = new Array<number>(10).fill(0);
    for (let seed = 0; seed < 4000; seed++) for (const i of drawSample({ asked: asked(10) }, 4, seed).chosen) times[i]!++;
    expect(times.slice(0, 2)).toEqual([4000, 4000]);
    // 1,000 expected each; a binomial's standard deviation is 27
    for (const n of times.slice(2)) expect(Math.abs(n - 1000)).toBeLessThan(120);
  });

  it('fewer questions than --size: all of them', () => {
    expect(drawSample({ asked: asked(3) }, 5, 1)).toEqual({ chosen: [0, 1, 2], head: 3, tail: 0 });
  });

  it('stratified: each stratum in proportion to how often its questions were asked, drawn the same way', () => {
    // en asked 63 times in 6 questions, fr 27 in 3, de 10 in 1
    const input = { asked: [20, 15, 10, 10, 10, 10, 9, 8, 5, 3], stratum: [0, 1, 0, 0, 2, 0, 1, 0, 0, 1], strata: ['en', 'fr', 'de'] };
    const draw = drawSample(input, 5, 3);
    // 5 × 63/100 = 3.15, 5 × 27/100 = 1.35, 5 × 10/100 = 0.5: 3, 1, 0, then the largest remainder (de, 0.5) gets the last
    expect(draw.strata).toEqual([
      { name: 'de', groups: 1, asked: 10, drawn: 1 },
      { name: 'en', groups: 6, asked: 63, drawn: 3 },
      { name: 'fr', groups: 3, asked: 27, drawn: 1 },
    ]);
    // each stratum's most asked first: en 0 and 2 (ceil(3/2)), fr 1, de 4; en's third from its others
    expect(draw.chosen).toEqual(expect.arrayContaining([0, 1, 2, 4]));
    expect(draw.chosen).toHaveLength(5);
    expect(draw.head).toBe(4);
    expect(draw.tail).toBe(1);
  });
});

describe('allocate', () => {
  it('shares by largest remainders, ties to the first', () => {
    // 5 × 6/10 = 3, 5 × 3/10 = 1.5, 5 × 1/10 = 0.5: 3, 1, 0, then one more to the first of the two remainders of 0.5
    expect(allocate([6, 3, 1], [10, 10, 10], 5)).toEqual([3, 2, 0]);
  });

  it('a stratum never gets more than it holds: the rest goes to the others, in proportion', () => {
    // as above, but the first holds 1: 2 left for the others, 2 × 3/4 = 1.5, 2 × 1/4 = 0.5 → 1 + 1 by the remainder
    expect(allocate([6, 3, 1], [1, 10, 10], 5)).toEqual([1, 4, 0]);
    expect(allocate([1, 1], [2, 2], 10)).toEqual([2, 2]);
    expect(allocate([0, 0, 5], [3, 3, 1], 4)).toEqual([2, 1, 1]);
  });
});
