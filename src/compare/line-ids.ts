import type { Comparison } from './schema.js';

/** Questions not compared because they are in one run only or were edited: added, removed or changed. */
export const unpairedCount = (c: Comparison): number => c.counts.added + c.counts.removed + c.counts.changed;

/**
 * The sides whose dataset names its questions by their line (no id column), when questions moved between the runs:
 * a row added or removed renamed every question after it, so their ids no longer pair the same questions.
 */
export const renamedByLine = (c: Comparison): ('base' | 'head')[] =>
  unpairedCount(c) === 0 ? [] : (['base', 'head'] as const).filter((side) => c[side].dataset.ids === 'line');
