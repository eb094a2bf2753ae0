import { EXPECTATION_FIELDS, EXPECTATION_KEYS, type Expectations } from './expectations.js';
import { ROW_REQUEST_FIELDS, ROW_REQUEST_KEYS, type RowRequest } from './request-fields.js';
import { TURN_CHECK_KEYS, TURN_CHECKS, type TurnCheckValues } from './turn-checks.js';

/**
 * `answer`: the question should be answered (by a matching answer, when expectations are given);
 * `fallback`: it is out of scope and should be refused; `null`: unlabeled.
 */
export type Expect = 'answer' | 'fallback' | null;

/** One question of a dataset, as read from a CSV or JSONL row; or one turn of a conversation. */
export interface Question {
  /** A turn's id is its conversation's and its number: `move-1#2`. */
  id: string;
  /** 1-based line of the row in its file, for messages (a JSONL conversation's turns share its line). */
  line: number;
  question: string;
  expect: Expect;
  expected: Expectations;
  /** An ISO 639-1 code (src/model/language.ts). */
  language?: string;
  /** The row's language as written, when it was a region form read as its code (`en-US` for `en`): for a note. */
  languageAsWritten?: string;
  username?: string;
  guest?: boolean;
  extraData?: string;
  /** The request fields the row sets for itself (src/model/request-fields.ts); the run's flags give the others. */
  request?: RowRequest;
  tags: string[];
  /**
   * The dataset's own columns of this row (neither known nor a near miss of a known one: notes, owner...), as text;
   * on a turn of a JSONL conversation, the conversation's and the turn's own. Shown beside the result, never judged.
   */
  meta?: Record<string, string>;
  /** Set on a turn: its conversation and its 1-based number. */
  conversation?: { id: string; turn: number };
  /** A turn's checks of the service's state (src/model/turn-checks.ts). */
  checks?: TurnCheckValues;
}

/**
 * An ordered list of turns asked by one user: its `username`, or a fresh name per run and conversation. Its
 * language and tags are every turn's.
 */
export interface Conversation {
  id: string;
  /** The line it starts on (a JSONL line, or the CSV row of its first turn). */
  line: number;
  username?: string;
  turns: Question[];
}

/** What a dataset holds, in file order: single questions and conversations. */
export type DatasetItem = Question | Conversation;

export const isConversation = (item: DatasetItem): item is Conversation => 'turns' in item;

/** The questions of an item: the question itself, or the conversation's turns. */
export const questionsOfItem = (item: DatasetItem): readonly Question[] => (isConversation(item) ? item.turns : [item]);

/** A turn's id: its conversation's id and its number. */
export const turnId = (conversation: string, turn: number): string => `${conversation}#${turn}`;

/** The columns a dataset may have (CSV header or JSONL keys; `turns` holds a JSONL conversation's turns). */
export const DATASET_COLUMNS: readonly string[] = [
  'id',
  'question',
  ...EXPECTATION_KEYS.map((k) => EXPECTATION_FIELDS[k].column),
  'expect',
  ...TURN_CHECK_KEYS.map((k) => TURN_CHECKS[k].column),
  'language',
  'username',
  'guest',
  'extra_data',
  ...ROW_REQUEST_KEYS.map((k) => ROW_REQUEST_FIELDS[k].column),
  'tags',
  'conversation',
  'turn',
  'turns',
];
