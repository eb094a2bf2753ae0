import { ALTERNATIVES_SEPARATOR, EXPECTATION_FIELDS, EXPECTATION_KEYS, valueProblem, type Expectations } from '../model/expectations.js';
import type { Question } from '../model/question.js';

/** A raw row: CSV cells are strings, JSONL values may be anything JSON allows. */
export type RawRow = Record<string, unknown>;

export type RowResult = { ok: true; question: Question } | { ok: false; problems: string[] };

const isBlank = (v: unknown): boolean => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

function text(row: RawRow, key: string, problems: string[]): string | undefined {
  const v = row[key];
  if (isBlank(v)) return undefined;
  if (typeof v === 'string') return v.trim();
  if (typeof v === 'number') return String(v);
  problems.push(`column "${key}" must be text, got ${JSON.stringify(v)}`);
  return undefined;
}

/** A cell of alternatives: `a || b` in CSV, an array or a single value in JSONL. */
function alternatives(row: RawRow, key: string, problems: string[]): string[] | undefined {
  const v = row[key];
  if (isBlank(v)) return undefined;
  const parts = Array.isArray(v) ? v : typeof v === 'string' ? v.split(ALTERNATIVES_SEPARATOR) : [v];
  const values: string[] = [];
  for (const part of parts) {
    if (typeof part === 'number') values.push(String(part));
    else if (typeof part === 'string' && part.trim() !== '') values.push(part.trim());
    else if (typeof part !== 'string') problems.push(`column "${key}" holds ${JSON.stringify(part)} (expected text or a number)`);
  }
  return values.length > 0 ? values : undefined;
}

function list(row: RawRow, key: string, problems: string[]): string[] {
  const v = row[key];
  if (isBlank(v)) return [];
  const parts = Array.isArray(v) ? v : typeof v === 'string' ? v.split('|') : [v];
  const out: string[] = [];
  for (const p of parts) {
    if (typeof p !== 'string') problems.push(`column "${key}" holds ${JSON.stringify(p)} (expected pipe-separated text, e.g. "billing|en")`);
    else if (p.trim() !== '') out.push(p.trim());
  }
  return out;
}

function flag(row: RawRow, key: string, problems: string[]): boolean | undefined {
  const v = row[key];
  if (isBlank(v)) return undefined;
  if (v === true || v === 1 || v === '1' || v === 'true') return true;
  if (v === false || v === 0 || v === '0' || v === 'false') return false;
  problems.push(`column "${key}" is ${JSON.stringify(v)} (expected 1, 0, true or false)`);
  return undefined;
}

/** Turns one raw row into a Question, or lists everything wrong with it. */
export function parseRow(row: RawRow, line: number, defaultId: string): RowResult {
  const problems: string[] = [];
  const id = text(row, 'id', problems) ?? defaultId;
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
      if (kind === 'sequence' && !/^-?\d+$/.test(value)) problems.push(`${column} "${value}" is not a whole number (e.g. 42)`);
      const bad = kind === 'text' ? valueProblem(value) : undefined;
      if (bad !== undefined) problems.push(`${column} "${value}" is not a valid regular expression: ${bad} (e.g. re:^pay(ment)?s?$)`);
    }
  }
  const hasExpectations = Object.keys(expected).length > 0;

  let expect: Question['expect'] = hasExpectations ? 'answer' : null;
  const rawExpect = text(row, 'expect', problems)?.toLowerCase();
  if (rawExpect === 'answer' || rawExpect === 'fallback') expect = rawExpect;
  else if (rawExpect !== undefined) problems.push(`column "expect" is "${rawExpect}" (expected "answer" or "fallback")`);
  if (expect === 'fallback' && hasExpectations) {
    problems.push('expect is "fallback" but an expected_* column is also set (a question is either answered or refused)');
  }

  const language = text(row, 'language', problems)?.toLowerCase();
  if (language !== undefined && !/^[a-z]{2}$/.test(language)) {
    problems.push(`column "language" is "${language}" (expected an ISO 639-1 code such as en or it)`);
  }
  const username = text(row, 'username', problems);
  const guest = flag(row, 'guest', problems);
  const extraData = text(row, 'extra_data', problems);
  const tags = list(row, 'tags', problems);

  if (problems.length > 0 || question === undefined) return { ok: false, problems };
  const q: Question = { id, line, question, expect, expected, tags };
  if (language !== undefined) q.language = language;
  if (username !== undefined) q.username = username;
  if (guest !== undefined) q.guest = guest;
  if (extraData !== undefined) q.extraData = extraData;
  return { ok: true, question: q };
}
