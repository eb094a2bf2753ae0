/**
 * The order questions are put to the editor, so that each label counts most: the most asked first (the set's
 * `count` column, which `answer-eval sample` writes; 1 without it), then the most uncertain: a top answer near the
 * floor threshold, or two top answers of close scores, whichever is closer; then the dataset's order. A question
 * without any knowledge answer (an empty list, or only the floor answer) comes after those with one, as often asked.
 */

export interface Rankable {
  line: number;
  /** How often it was asked (the set's `count`); 1 when the set does not say. */
  count: number;
  /** The scores of its knowledge answers (floor answers left out), in any order. */
  scores: readonly number[];
}

/**
 * How close the question is to going the other way: the smaller of (top-1 score - top-2 score) and |top-1 score -
 * floor|; Infinity without an answer (and without the floor, only the margin counts).
 */
export function closeness(scores: readonly number[], floor?: number): number {
  if (scores.length === 0) return Number.POSITIVE_INFINITY;
  const [top, second] = [...scores].sort((a, b) => b - a);
  const margin = second === undefined ? Number.POSITIVE_INFINITY : top! - second;
  const gap = floor === undefined ? Number.POSITIVE_INFINITY : Math.abs(top! - floor);
  return Math.min(margin, gap);
}

/** `items` in the order to label them (a new array). */
export function labelOrder<T extends Rankable>(items: readonly T[], floor?: number): T[] {
  const keyed = items.map((item) => ({ item, close: closeness(item.scores, floor) }));
  keyed.sort((a, b) => b.item.count - a.item.count || a.close - b.close || a.item.line - b.item.line);
  return keyed.map((k) => k.item);
}

/** A `count` cell as a number of times asked: a whole number from 1, else 1. */
export function countOf(value: string | undefined): number {
  const n = Number(value?.trim());
  return Number.isInteger(n) && n >= 1 ? n : 1;
}
