import { ALTERNATIVES_SEPARATOR, EXPECTATION_FIELDS, EXPECTATION_KEYS, valueProblem, type Expectations } from '../model/expectations.js';
import { readLanguage } from '../model/language.js';
import { turnId, type Question } from '../model/question.js';
import { isOutput, OUTPUTS, ROW_REQUEST_FIELDS, ROW_REQUEST_KEYS, type RowRequest } from '../model/request-fields.js';
import { checkValueProblem, TURN_CHECK_KEYS, TURN_CHECKS, type TurnCheckValues } from '../model/turn-checks.js';
import { cut, quote } from '../model/quote.js';

/** A raw row: CSV cells are strings, JSONL values may be anything JSON allows. */
export type RawRow = Record<string, unknown>;

export type RowResult = { ok: true; question: Question } | { ok: false; problems: string[] };

export const isBlank = (v: unknown): boolean => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

export function text(row: RawRow, key: string, problems: string[]): string | undefined {
  const v = row[key];
  if (isBlank(v)) return undefined;
  if (typeof v === 'string') return v.trim();
  if (typeof v === 'number') return String(v);
  problems.push(`column "${key}" must be text, got ${quote(v)}`);
  return undefined;
}

/** Control characters, invisible ones (zero-width space, bidi marks) and Unicode line and paragraph separators. */
const CONTROL = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;

const codePoint = (c: string): string => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

/** What such a character is, in words: `a line break`, `a tab`, `a control character (U+001B)`, `an invisible character (U+200B)`. */
const controlName = (c: string): string =>
  c === '\n' || c === '\r' || c === '\u2028' || c === '\u2029'
    ? 'a line break'
    : c === '\t'
      ? 'a tab'
      : /\p{Cf}/u.test(c)
        ? `an invisible character (${codePoint(c)})`
        : `a control character (${codePoint(c)})`;

/** Why an id (of a question or a conversation) cannot be one, if it cannot: the console and CI logs print ids as they are. */
export function idProblem(id: string, column: string): string | undefined {
  const at = id.search(CONTROL);
  if (at < 0) return undefined;
  return `column "${column}" holds ${controlName(id[at]!)} at character ${at + 1} (expected an id on one line, of visible characters: ids are printed on the console and in CI logs, where a line break would start a line of its own, and one that looks like another must not name another question)`;
}

/** An id cell: text on one line. */
export function idText(row: RawRow, key: string, problems: string[]): string | undefined {
  const id = text(row, key, problems);
  const problem = id === undefined ? undefined : idProblem(id, key);
  if (problem !== undefined) problems.push(problem);
  return id;
}

const ALTERNATIVES_RULE = `(expected values separated by "${ALTERNATIVES_SEPARATOR}", a space on each side, none empty: refunds${ALTERNATIVES_SEPARATOR}returns; leave the cell empty to expect nothing)`;

/**
 * A cell of alternatives: `a || b` in CSV, an array or a single value in JSONL. An empty alternative (` || `, `a || `,
 * `["a", ""]`) or list (`[]`) is a problem, not a cell that expects nothing: left out, it would leave the question
 * unlabeled or met by any answer; so is `||` without a space on each side (`a||b`, which would be one value).
 */
function alternatives(row: RawRow, key: string, problems: string[]): string[] | undefined {
  const v = row[key];
  if (isBlank(v)) return undefined;
  if (Array.isArray(v) && v.length === 0) {
    problems.push(`${key} [] is an empty list (expected one value or more, e.g. ["refunds", "returns"]; leave the key out to expect nothing)`);
    return undefined;
  }
  const parts: unknown[] = Array.isArray(v) ? v : typeof v === 'string' ? v.split(ALTERNATIVES_SEPARATOR) : [v];
  const values: string[] = [];
  let empty = false;
  let unspaced = false;
  for (const part of parts) {
    if (typeof part === 'number') values.push(String(part));
    else if (typeof part !== 'string') problems.push(`column "${key}" holds ${quote(part)} (expected text or a number)`);
    else {
      const value = part.trim();
      // `a ||`: a cell's last separator, its space trimmed away
      if (value === '' || (typeof v === 'string' && (value.startsWith('||') || value.endsWith('||')))) empty = true;
      else if (typeof v === 'string' && value.includes('||')) unspaced = true;
      else values.push(value);
    }
  }
  const written = quote(v);
  if (empty) problems.push(`${key} ${written} has an empty alternative ${ALTERNATIVES_RULE}`);
  else if (unspaced) problems.push(`${key} ${written} has "||" without a space on each side ${ALTERNATIVES_RULE}`);
  return values.length > 0 ? values : undefined;
}

export function list(row: RawRow, key: string, problems: string[]): string[] {
  const v = row[key];
  if (isBlank(v)) return [];
  const parts = Array.isArray(v) ? v : typeof v === 'string' ? v.split('|') : [v];
  const out: string[] = [];
  for (const p of parts) {
    if (typeof p !== 'string') problems.push(`column "${key}" holds ${quote(p)} (expected pipe-separated text, e.g. "billing|en")`);
    else if (p.trim() !== '') out.push(p.trim());
  }
  return out;
}

export function flag(row: RawRow, key: string, problems: string[]): boolean | undefined {
  const v = row[key];
  if (isBlank(v)) return undefined;
  if (v === true || v === 1 || v === '1' || v === 'true') return true;
  if (v === false || v === 0 || v === '0' || v === 'false') return false;
  problems.push(`column "${key}" is ${quote(v)} (expected 1, 0, true or false)`);
  return undefined;
}

/** The fields a question and a turn share: the question text, what it expects of the answer, and extra_data. */
interface Asked {
  question: string | undefined;
  expect: Question['expect'];
  expected: Expectations;
  extraData: string | undefined;
}

function asked(row: RawRow, problems: string[]): Asked {
  const question = text(row, 'question', problems);
  if (question === undefined && problems.length === 0) {
    problems.push('column "question" is empty (every row needs the question text)');
  }

  const expected: Expectations = {};
  for (const key of EXPECTATION_KEYS) {
    const { column, kind } = EXPECTATION_FIELDS[key];
    const values = alternatives(row, column, problems);
    if (!values) continue;
    expected[key] = values;
    for (const value of values) {
      if (kind === 'sequence' && !/^-?\d+$/.test(value)) problems.push(`${column} ${quote(value)} is not a whole number (e.g. 42)`);
      const bad = kind === 'text' ? valueProblem(value, 're:^pay(ment)?s?$') : undefined;
      if (bad !== undefined) problems.push(`${column} ${quote(value)} ${bad}`);
    }
  }
  const hasExpectations = Object.keys(expected).length > 0;

  let expect: Question['expect'] = hasExpectations ? 'answer' : null;
  const rawExpect = text(row, 'expect', problems)?.toLowerCase();
  if (rawExpect === 'answer' || rawExpect === 'fallback') expect = rawExpect;
  else if (rawExpect !== undefined) problems.push(`column "expect" is ${quote(rawExpect)} (expected "answer" or "fallback")`);
  if (expect === 'fallback' && hasExpectations) {
    problems.push('expect is "fallback" but an expected_* column is also set (a question is either answered or refused)');
  }
  return { question, expect, expected, extraData: text(row, 'extra_data', problems) };
}

/** A row's `language`: its ISO 639-1 code, and the value as written when it was a region form (`en-US` for `en`). */
export interface RowLanguage {
  code: string;
  /** Set when the row wrote a region form, read as `code`: the run and validate say so once. */
  written?: string;
}

/** `language`: an ISO 639-1 code in any case, or a region form (`en-US`, `pt_BR`) read as its code; anything else is a problem. */
export function language(row: RawRow, problems: string[]): RowLanguage | undefined {
  const value = text(row, 'language', problems);
  if (value === undefined) return undefined;
  const read = readLanguage(value);
  if ('problem' in read) {
    problems.push(`column "language" ${read.problem}`);
    return undefined;
  }
  return read.region === undefined ? { code: read.code } : { code: read.code, written: value };
}

/** A row's language on its question: the code, and the region form it was written in, if any. */
export function setLanguage(q: Question, lang: RowLanguage | undefined): void {
  if (lang === undefined) return;
  q.language = lang.code;
  if (lang.written !== undefined) q.languageAsWritten = lang.written;
}

/** `output`: json, xml, html or text, in any case. */
function output(row: RawRow, key: string, problems: string[]): RowRequest['output'] {
  const value = text(row, key, problems)?.toLowerCase();
  if (value === undefined) return undefined;
  if (isOutput(value)) return value;
  problems.push(`column "${key}" is ${quote(value)} (expected one of ${OUTPUTS.join(', ')})`);
  return undefined;
}

/**
 * The request fields a row sets for its own question (src/model/request-fields.ts): flags as 0 or 1 (true and false
 * too, as for guest), an output as one of OUTPUTS; `inherited` (a JSONL conversation's, for its turns) under them.
 */
export function rowRequest(row: RawRow, problems: string[], inherited?: RowRequest): RowRequest | undefined {
  const out: RowRequest = { ...inherited };
  for (const key of ROW_REQUEST_KEYS) {
    const { column, kind } = ROW_REQUEST_FIELDS[key];
    if (kind === 'output') {
      const value = output(row, column, problems);
      if (value !== undefined) out.output = value;
    } else {
      const value = flag(row, column, problems);
      if (value !== undefined) out[key as Exclude<typeof key, 'output'>] = value;
    }
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** Turns one raw row into a Question, or lists everything wrong with it. */
export function parseRow(row: RawRow, line: number, defaultId: string): RowResult {
  const problems: string[] = [];
  const id = idText(row, 'id', problems) ?? defaultId;
  const { question, expect, expected, extraData } = asked(row, problems);
  for (const key of TURN_CHECK_KEYS) {
    const { column } = TURN_CHECKS[key];
    if (!isBlank(row[column])) problems.push(`column "${column}" is set on a single question (a turn check: give the row a conversation and a turn, or use a JSONL conversation)`);
  }
  const turn = text(row, 'turn', problems);
  if (turn !== undefined) problems.push(`column "turn" is ${cut(turn)} but "conversation" is empty (a turn belongs to a conversation: give both)`);
  const lang = language(row, problems);
  const username = text(row, 'username', problems);
  const guest = flag(row, 'guest', problems);
  const request = rowRequest(row, problems);
  const tags = list(row, 'tags', problems);

  if (problems.length > 0 || question === undefined) return { ok: false, problems };
  const q: Question = { id, line, question, expect, expected, tags };
  setLanguage(q, lang);
  if (username !== undefined) q.username = username;
  if (guest !== undefined) q.guest = guest;
  if (extraData !== undefined) q.extraData = extraData;
  if (request !== undefined) q.request = request;
  return { ok: true, question: q };
}

/** What every turn of a conversation shares: the conversation and what it set once for all its turns. */
export interface TurnContext {
  conversation: string;
  language: RowLanguage | undefined;
  username: string | undefined;
  tags: string[];
  /** The request fields a JSONL conversation sets for all its turns (a turn's own override them). */
  request?: RowRequest;
}

/** One turn of a conversation from its raw fields (question, expectations, turn checks, extra_data): a Question, or its problems. */
export function parseTurn(row: RawRow, line: number, turn: number, context: TurnContext): RowResult {
  const problems: string[] = [];
  const { question, expect, expected, extraData } = asked(row, problems);
  const checks: TurnCheckValues = {};
  for (const key of TURN_CHECK_KEYS) {
    const { column } = TURN_CHECKS[key];
    const value = text(row, column, problems);
    if (value === undefined) continue;
    const bad = checkValueProblem(key, value);
    if (bad !== undefined) problems.push(bad);
    else checks[key] = value;
  }
  const request = rowRequest(row, problems, context.request);
  if (problems.length > 0 || question === undefined) return { ok: false, problems };
  const q: Question = { id: turnId(context.conversation, turn), line, question, expect, expected, tags: context.tags };
  setLanguage(q, context.language);
  if (context.username !== undefined) q.username = context.username;
  if (extraData !== undefined) q.extraData = extraData;
  if (request !== undefined) q.request = request;
  q.conversation = { id: context.conversation, turn };
  if (Object.keys(checks).length > 0) q.checks = checks;
  return { ok: true, question: q };
}
