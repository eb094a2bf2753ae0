/** What a row may require of the top-1 answer; every given field must match (any of its values). */
export interface Expectations {
  answer?: string[];
  sequence?: string[];
  label?: string[];
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
  'expect',
  'language',
  'username',
  'guest',
  'extra_data',
  'tags',
] as const;

/** Separates several acceptable values in one expected_* cell. */
export const ALTERNATIVES_SEPARATOR = ' || ';
