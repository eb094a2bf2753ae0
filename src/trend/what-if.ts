import type { RunInfo } from '../model/report.js';

type Rescored = NonNullable<RunInfo['rescored']>;

/**
 * A report written by `answer-eval rescore` is a what-if: the answers of a run it came from, judged again (another
 * floor, dataset or alias file). It is not a night of history: `trend` leaves it out unless asked, and even then it
 * never counts for what is new, flaky or failing since, nor for the gates.
 */
export interface WhatIf {
  /** The report.json of the what-if. */
  path: string;
  /** The report.json whose answers it judged again. */
  from: string;
  /** What it changed, in words: `floor 70`, `dataset sha256 1a2b3c4d5e6f… → 7a8b9c0d1e2f…`, `aliases a.csv`. */
  what: string;
}

const short = (sha: string): string => (sha.length > 12 ? `${sha.slice(0, 12)}…` : sha);

/** What a rescore changed, in words; `judged again as it was` when it changed nothing. */
export function whatIfWords(r: Rescored): string {
  const parts = [
    ...(r.floor !== null ? [`floor ${r.floor}`] : []),
    ...(r.dataset.from !== r.dataset.to ? [`dataset sha256 ${short(r.dataset.from)} → ${short(r.dataset.to)}`] : []),
    ...(r.aliases !== null ? [`aliases ${r.aliases}`] : []),
  ];
  return parts.length > 0 ? parts.join(', ') : 'judged again as it was';
}

/** `path (rescore of FROM: floor 70)`, as a message names a what-if. */
export const whatIfLine = (w: WhatIf): string => `${w.path} (rescore of ${w.from}: ${w.what})`;
