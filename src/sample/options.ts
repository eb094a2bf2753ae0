import type { NamedColumns } from './columns.js';

// What `answer-eval sample` takes, and its defaults: read by the CLI for its flags, so this file loads nothing.

/** How many questions are drawn when --size is not given. */
export const DEFAULT_SIZE = 200;

/** The seed of a draw when none is given: printed with the summary, so the draw can be made again. */
export const DEFAULT_SEED = 1;

/**
 * The default similarity at which two questions are near-repeats: the Jaccard similarity of their character
 * 3-grams (trigrams.ts) of 0.8 or more. Measured on pairs (docs/datasets.md, "From a log to a question set"): a typo
 * or a plural (`pay my bill` / `pay my bil`, `my bills`: 0.86) folds; another word (`how do i` / `how can i`: 0.64),
 * another day (`sunday` / `monday`: 0.74) or another object (`cancel my order` / `my account`: 0.39) does not.
 */
export const NEAR_REPEAT_SIMILARITY = 0.8;

export interface SampleOptions {
  /** The log of questions asked: CSV (with a header) or JSONL. */
  log: string;
  /** The question set to write: `.csv` or `.jsonl`. */
  out: string;
  /** How many questions to draw. @default DEFAULT_SIZE (200) */
  size?: number | undefined;
  /** The seed of the draw: the same log and seed give the same set, byte for byte. @default DEFAULT_SEED (1) */
  seed?: number | undefined;
  /** The log's encoding when it is not UTF-8 (any label TextDecoder knows). */
  encoding?: string | undefined;
  /** Columns named rather than found (question, language, timestamp, user), and the column to stratify by. */
  columns?: NamedColumns | undefined;
  /** The language (ISO 639-1) of rows that do not say theirs. */
  language?: string | undefined;
  /** Write personal data as it is. @default false */
  keepPii?: boolean | undefined;
  /** The 3-gram Jaccard similarity from which two questions are near-repeats; 1: exact repeats only. @default NEAR_REPEAT_SIMILARITY (0.8) */
  similarity?: number | undefined;
  /** Replace --out (and its summary file) if they exist. @default false */
  overwrite?: boolean | undefined;
}
