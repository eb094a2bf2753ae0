import { EXPECTATION_FIELDS, EXPECTATION_KEYS, type Expectations } from './expectations.js';

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
export const DATASET_COLUMNS: readonly string[] = [
  'id',
  'question',
  ...EXPECTATION_KEYS.map((k) => EXPECTATION_FIELDS[k].column),
  'expect',
  'language',
  'username',
  'guest',
  'extra_data',
  'tags',
];
