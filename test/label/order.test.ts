import { describe, expect, it } from 'vitest';
import { closeness, countOf, labelOrder } from '../../src/label/order.js';

// The order questions are put to the editor: most asked first, then the closest calls.

describe('closeness', () => {
  it('the smaller of the top-2 margin and the top-1 distance to the floor', () => {
    expect(closeness([80, 62], 45)).toBe(18); // margin 18 < gap 35
    expect(closeness([48, 10], 45)).toBe(3); // gap 3 < margin 38
    expect(closeness([40], 45)).toBe(5);
    expect(closeness([70, 30])).toBe(40);
    expect(closeness([70])).toBe(Infinity);
    expect(closeness([], 45)).toBe(Infinity);
    expect(closeness([30, 70, 65])).toBe(5); // in any order
  });
});

describe('labelOrder', () => {
  it('count first, then closeness, then line; a question without answers last among its count', () => {
    const items = [
      { id: 'a', line: 2, count: 1, scores: [80, 79] }, // 1
      { id: 'b', line: 3, count: 5, scores: [90, 20] }, // 70
      { id: 'c', line: 4, count: 5, scores: [50, 49] }, // 1
      { id: 'd', line: 5, count: 1, scores: [] }, // none
      { id: 'e', line: 6, count: 1, scores: [60, 50] }, // 10
      { id: 'f', line: 1, count: 1, scores: [80, 79] }, // 1, earlier line
    ];
    expect(labelOrder(items).map((i) => i.id)).toEqual(['c', 'b', 'f', 'a', 'e', 'd']);
    // with a floor of 58, e is 2 from it
    expect(labelOrder(items, 58).map((i) => i.id)).toEqual(['c', 'b', 'f', 'a', 'e', 'd']);
    expect(labelOrder(items, 59.5).map((i) => i.id)).toEqual(['c', 'b', 'e', 'f', 'a', 'd']);
  });

  it('countOf: a whole number from 1, else 1', () => {
    expect([countOf('12'), countOf(' 3 '), countOf('0'), countOf('2.5'), countOf('many'), countOf(undefined), countOf('')]).toEqual([12, 3, 1, 1, 1, 1, 1]);
  });
});
