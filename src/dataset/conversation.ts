import type { Conversation, Question } from '../model/question.js';
import { flag, idProblem, idText, isBlank, language, list, parseTurn, rowRequest, text, type RawRow, type TurnContext } from './row.js';
import { quote } from '../model/quote.js';

/** A problem at a line of the file. */
export interface LineProblem {
  line: number;
  message: string;
}

export type ConversationResult = { ok: true; conversation: Conversation } | { ok: false; problems: LineProblem[] };

/** What a conversation sets once for all its turns: never on a turn of a JSONL conversation. */
const CONVERSATION_KEYS = ['id', 'username', 'language', 'tags', 'guest', 'conversation', 'turn'] as const;

const NEVER_GUEST = 'a conversation is never asked as a guest: it is asked as one user (its username, or a fresh one per run), who holds its dialogue';

/** The turns parsed against their context; problems each at their line, prefixed with the conversation and turn. */
function withTurns(id: string, line: number, context: TurnContext, rows: readonly { row: RawRow; line: number }[], problems: LineProblem[]): ConversationResult {
  const turns: Question[] = [];
  rows.forEach(({ row, line: at }, i) => {
    const parsed = parseTurn(row, at, i + 1, context);
    if (parsed.ok) turns.push(parsed.question);
    else for (const message of parsed.problems) problems.push({ line: at, message: `conversation ${quote(id)} turn ${i + 1}: ${message}` });
  });
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, conversation: { id, line, ...(context.username !== undefined ? { username: context.username } : {}), turns } };
}

/**
 * A JSONL conversation: `{"id": "move-1", "username"?, "language"?, "tags"?, "turns": [{"question": ..., ...}, ...]}`,
 * its id defaulting to its line. A turn takes the fields of a question that are not the conversation's (question,
 * expectations, expect, turn checks, extra_data, the request fields); request fields beside `turns` are every turn's.
 */
export function parseConversationLine(row: RawRow, line: number): ConversationResult {
  const problems: string[] = [];
  const id = idText(row, 'id', problems) ?? String(line);
  const lang = language(row, problems);
  const username = text(row, 'username', problems);
  const tags = list(row, 'tags', problems);
  const request = rowRequest(row, problems);
  if (flag(row, 'guest', problems) === true) problems.push(NEVER_GUEST);
  if (!isBlank(row['question'])) problems.push('a conversation line has "turns", not a "question" (each turn has its own: {"question": ...})');
  const turns = row['turns'];
  const rows: { row: RawRow; line: number }[] = [];
  if (!Array.isArray(turns) || turns.length === 0) problems.push('"turns" must be a list of one turn or more, e.g. [{"question": "I\'m moving house"}, {"question": "next month"}]');
  else {
    turns.forEach((turn: unknown, i) => {
      if (typeof turn !== 'object' || turn === null || Array.isArray(turn)) {
        problems.push(`turn ${i + 1} is ${quote(turn)} (expected an object such as {"question": "..."})`);
        return;
      }
      for (const key of CONVERSATION_KEYS) {
        if (key in turn) problems.push(`turn ${i + 1} sets "${key}", which is the conversation's (set it once, beside "turns")`);
      }
      rows.push({ row: turn as RawRow, line });
    });
  }
  const found = problems.map((message) => ({ line, message: `conversation ${quote(id)}: ${message}` }));
  return withTurns(id, line, { conversation: id, language: lang, username, tags, ...(request ? { request } : {}) }, rows, found);
}

/**
 * A conversation from its consecutive rows (a CSV, or JSONL rows with `conversation` and `turn`): numbered 1, 2, 3...
 * in row order, no `id` of their own (a turn is named `{conversation}#{turn}`), and one language, username and tags,
 * given on the first row or the same on every row.
 */
export function conversationOfRows(id: string, rows: readonly { row: RawRow; line: number }[]): ConversationResult {
  const problems: LineProblem[] = [];
  const at = (line: number, message: string) => problems.push({ line, message: `conversation ${quote(id)}: ${message}` });
  const badId = idProblem(id, 'conversation');
  if (badId !== undefined) at(rows[0]!.line, badId);
  rows.forEach(({ row, line }, i) => {
    const raw = text(row, 'turn', []);
    if (raw === undefined) at(line, `column "turn" is empty (every row of a conversation numbers its turn: 1, 2, 3...)`);
    else if (raw !== String(i + 1)) at(line, `turn ${raw} where turn ${i + 1} was expected (the rows of a conversation are consecutive, numbered 1, 2, 3... in order)`);
    if (!isBlank(row['id'])) at(line, `column "id" is set on turn ${i + 1} (a turn is named by its conversation and number, ${id}#${i + 1}: leave id empty)`);
  });
  // one value of each conversation field, from whichever row gives it; another value on a later row is a problem
  const shared = <T>(key: string, read: (row: RawRow, problems: string[]) => T | undefined, same: (a: T, b: T) => boolean, show: (v: T) => string = quote): T | undefined => {
    let value: T | undefined;
    let from = 0;
    for (const { row, line } of rows) {
      const found: string[] = [];
      const v = read(row, found);
      for (const message of found) at(line, message);
      if (v === undefined) continue;
      if (value === undefined) [value, from] = [v, line];
      else if (!same(value, v)) at(line, `${key} ${show(v)} differs from ${show(value)} on line ${from} (a conversation has one ${key}: give it on its first row, or the same on every row)`);
    }
    return value;
  };
  const first = shared('language', language, (a, b) => a.code === b.code, (v) => quote(v.written ?? v.code));
  // a region form on any row (`en-GB` beside `en`) is said, as on a question's own row
  const region = first && first.written === undefined ? rows.map(({ row }) => language(row, [])).find((l) => l?.written !== undefined) : undefined;
  const lang = region ? { ...first!, written: region.written! } : first;
  const username = shared('username', (row, p) => text(row, 'username', p), (a, b) => a === b);
  const tags = shared('tags', (row, p) => (isBlank(row['tags']) ? undefined : list(row, 'tags', p)), (a, b) => a.join('|') === b.join('|')) ?? [];
  for (const { row, line } of rows) {
    const found: string[] = [];
    if (flag(row, 'guest', found) === true) found.push(NEVER_GUEST);
    for (const message of found) at(line, message);
  }
  return withTurns(id, rows[0]!.line, { conversation: id, language: lang, username, tags }, rows, problems);
}
