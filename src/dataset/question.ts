/**
 * What a row may require of the top-1 answer; every given field must match (any of its values).
 * Text values (answer, label, category, tag) may start with `contains:` or `re:` (see src/score/match.ts).
 */
export interface Expectations {
  answer?: string[];
  sequence?: string[];
  label?: string[];
  category?: string[];
  /** Met when any of the answer's tags matches any of these. */
  tag?: string[];
}

/**
 * `answer`: the question should be answered (by a matching answer, when expectations are given);
 * `fallback`: it is out of scope and should be refused; `null`: unlabeled.
 */
export type Expect = 'answer' | 'fallback' | null;

/** One question of a dataset, as read from a CSV or JSONL row. */
export interface Question {
  id: string;
  /** 1-based line of the row in its file, for messages. */
  line: number;
  question: string;
  expect: Expect;
  expected: Expectations;
  language?: string;
  username?: string;
  guest?: boolean;
  extraData?: string;
  tags: string[];
}

/** The columns a dataset may have (CSV header or JSONL keys). */
export const DATASET_COLUMNS = [
  'id',
  'question',
  'expected_answer',
  'expected_sequence',
  'expected_label',
  'expected_category',
  'expected_tag',
  'expect',
  'language',
  'username',
  'guest',
  'extra_data',
  'tags',
] as const;

/** Separates several acceptable values in one expected_* cell. */
export const ALTERNATIVES_SEPARATOR = ' || ';
