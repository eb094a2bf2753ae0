import { Readable } from 'node:stream';
import { CsvError, parse } from 'csv-parse';
import { InputError, type InputProblem } from '../errors.js';
import { countBreaks, csvProblem, type CsvParseError } from '../dataset/csv-errors.js';
import { decodeLines, Undecodable } from '../dataset/decode.js';
import { csvDelimiter } from '../dataset/read.js';
import { JsonTextError, parseJsonText } from '../util/json-lines.js';
import { limits } from '../util/limits.js';
import { COLUMN_FLAGS, columnIn, lookedFor, mayBeQuestion, namedIn, type ColumnKind, type LogColumns, type NamedColumns } from './columns.js';
import type { LogSource } from './source.js';

/** One question of a log, with the values of the optional columns the log has (absent when blank). */
export interface LogRow {
  line: number;
  question: string;
  language?: string;
  timestamp?: string;
  user?: string;
  /** The --stratify column's value. */
  stratum?: string;
}

/** Why a row of the log gives no question: none (`empty`), or not one that can be read (`invalid`). */
export type SkipKind = 'empty' | 'invalid' | 'long';

export interface Skip {
  line: number;
  kind: SkipKind;
  message: string;
}

/**
 * The longest question kept, in characters: past it, a row holds a pasted document or error log rather than a
 * question (and scrubbing and comparing it costs more than a question should).
 */
export const MAX_QUESTION_CHARS = 1000;

export interface LogReading {
  /** The bytes of the log, as one reading of it gives them (logBytes). */
  bytes: AsyncIterable<Buffer>;
  /** Columns named by flags (or, on a second reading, those the first one found). */
  named: NamedColumns;
  /** Told the columns once they are known (a CSV's header; a JSONL log's first line with a question), with that line. */
  onColumns?: (columns: LogColumns, line: number) => void;
  onSkip?: (skip: Skip) => void;
}

/**
 * The questions of a log, CSV (a header; a comma, semicolon or tab between fields, as the dataset reader takes them)
 * or JSONL (one object per line), in file order. A row that gives no question is skipped and told to `onSkip`; what
 * stops the reading (bytes not in the encoding, a line longer than `limits.rowBytes`, a quote never closed, no question
 * column) throws an InputError naming the file and line.
 */
export async function* logRows(source: LogSource, r: LogReading): AsyncGenerator<LogRow> {
  const problems: InputProblem[] = [];
  const text = decodeLines(r.bytes, { file: source.name, encoding: source.encoding, problems });
  try {
    yield* source.format === 'jsonl' ? jsonlRows(text, source.name, r) : csvRows(text, source.name, r);
  } catch (error) {
    if (error instanceof Undecodable) throw new InputError(problems.map((p) => ({ ...p, message: asLog(p.message) })));
    throw error;
  }
}

/** The dataset reader's words for a file that is no text, said of a log. */
const asLog = (message: string): string => message.replace('not a question set', 'not a log of questions').replace('a question set is text', 'a log is text');

/** A row's value as text, trimmed; undefined when blank or not text (a JSON object, list, boolean or null). */
function textOf(v: unknown): string | undefined {
  const t = typeof v === 'string' ? v.trim() : typeof v === 'number' && Number.isFinite(v) ? String(v) : undefined;
  return t === '' ? undefined : t;
}

/** The row a log's columns give, or the reason it gives none. */
function rowOf(get: (column: string) => unknown, columns: LogColumns, line: number): LogRow | Skip {
  const raw = get(columns.question);
  const question = textOf(raw);
  if (question === undefined) {
    const invalid = raw !== undefined && raw !== null && typeof raw !== 'string';
    return invalid
      ? { line, kind: 'invalid', message: `"${columns.question}" is ${Array.isArray(raw) ? 'a list' : typeof raw === 'object' ? 'an object' : `${typeof raw} ${String(raw)}`}, not text` }
      : { line, kind: 'empty', message: `no question (column "${columns.question}" is empty)` };
  }
  if (question.length > MAX_QUESTION_CHARS) {
    return { line, kind: 'long', message: `the question is ${question.length.toLocaleString('en')} characters long, more than the ${MAX_QUESTION_CHARS.toLocaleString('en')} a question is taken to have (a pasted text, not kept)` };
  }
  const row: LogRow = { line, question };
  for (const kind of ['language', 'timestamp', 'user', 'stratify'] as const) {
    const column = columns[kind];
    const value = column === undefined ? undefined : textOf(get(column));
    if (value !== undefined) row[kind === 'stratify' ? 'stratum' : kind] = value;
  }
  return row;
}

const isSkip = (x: LogRow | Skip): x is Skip => 'kind' in x;

/** The columns of a CSV header: each found or named; a named one that is missing, or no question column, stops the reading. */
function headerColumns(header: readonly string[], named: NamedColumns, file: string): LogColumns {
  const problems: string[] = [];
  const found: Partial<Record<ColumnKind, string>> = {};
  for (const kind of ['question', 'language', 'timestamp', 'user'] as const) {
    const column = columnIn(header, kind, named[kind]);
    if (column !== undefined) found[kind] = column;
    else if (named[kind] !== undefined) problems.push(`${COLUMN_FLAGS[kind]} "${named[kind]}" is no column of the header`);
    else if (kind === 'question') problems.push(`no question column (looked for ${lookedFor('question')})`);
  }
  const stratify = named.stratify === undefined ? undefined : namedIn(header, named.stratify);
  if (named.stratify !== undefined && stratify === undefined) problems.push(`--stratify "${named.stratify}" is no column of the header`);
  if (problems.length > 0) {
    const hint = found.question === undefined && named.question === undefined ? "; name the question's column with --question-column" : '';
    throw new InputError([{ file, line: 1, message: `${problems.join('; ')} (the header has: ${header.join(', ')})${hint}` }]);
  }
  return { ...(found as { question: string }), ...(stratify !== undefined ? { stratify } : {}) };
}

async function* csvRows(text: AsyncIterable<string>, file: string, r: LogReading): AsyncGenerator<LogRow> {
  const pieces = text[Symbol.asyncIterator]();
  const first = await pieces.next();
  const head = first.done ? '' : first.value;
  const parser = parse({ raw: true, skip_empty_lines: true, relax_column_count: true, relax_quotes: true, delimiter: csvDelimiter(head, mayBeQuestion(r.named.question)), max_record_size: limits.rowBytes });
  async function* again(): AsyncGenerator<string> {
    if (!first.done) yield head;
    for (let next = await pieces.next(); !next.done; next = await pieces.next()) yield next.value;
  }
  const input = Readable.from(again(), { highWaterMark: 1 });
  input.on('error', (error) => parser.destroy(error));
  input.pipe(parser);
  let header: string[] | undefined;
  let columns: LogColumns | undefined;
  let index = new Map<string, number>();
  let breaksBefore = 0;
  try {
    for await (const { record, raw } of parser as AsyncIterable<{ record: string[]; raw: string }>) {
      const line = 1 + breaksBefore + countBreaks(/^[\r\n]*/.exec(raw)?.[0] ?? '');
      breaksBefore += countBreaks(raw);
      if (header === undefined) {
        header = record.map((h) => h.trim());
        columns = headerColumns(header, r.named, file);
        index = new Map(header.map((name, i) => [name, i] as const).reverse()); // the first of a name given twice
        r.onColumns?.(columns, line);
        continue;
      }
      if (record.every((cell) => cell.trim() === '')) continue;
      if (record.length !== header.length) {
        r.onSkip?.({ line, kind: 'invalid', message: `has ${record.length} fields, the header has ${header.length} (a field holding the separator must be quoted)` });
        continue;
      }
      const row = rowOf((column) => record[index.get(column)!], columns!, line);
      if (isSkip(row)) r.onSkip?.(row);
      else yield row;
    }
    if (header === undefined) throw new InputError([{ file, line: 0, message: 'is empty (expected a header, such as timestamp,user,question, and a row per question asked)' }]);
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    throw new InputError([{ file, ...csvProblem(error as CsvParseError) }]);
  } finally {
    input.destroy();
  }
}

async function* jsonlRows(text: AsyncIterable<string>, file: string, r: LogReading): AsyncGenerator<LogRow> {
  let line = 0;
  let rest = '';
  const columns: Partial<LogColumns> = {};
  let firstKeys: string[] | undefined;
  const one = (raw: string): LogRow | undefined => {
    line++;
    const t = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (t.trim() === '') return undefined;
    let value: unknown;
    try {
      value = parseJsonText(t);
    } catch (error) {
      // JSON.parse's message quotes the line, which may hold personal data: the summary says only where, or how deep
      const deep = error instanceof JsonTextError && error.deep ? `: it ${error.message}` : '';
      r.onSkip?.({ line, kind: 'invalid', message: `is not valid JSON${deep} (expected one JSON object per line)` });
      return undefined;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      const what = Array.isArray(value) ? 'a list' : value === null ? 'null' : `a ${typeof value}`;
      r.onSkip?.({ line, kind: 'invalid', message: `is ${what}, not a JSON object (expected one object per line, such as {"question": "..."})` });
      return undefined;
    }
    const row = value as Record<string, unknown>;
    const keys = Object.keys(row);
    firstKeys ??= keys;
    if (resolve(keys, columns, r, line) === undefined) {
      const named = r.named.question;
      r.onSkip?.({ line, kind: 'empty', message: named === undefined ? `no question (no key among ${lookedFor('question')})` : `no question (no key "${named}")` });
      return undefined;
    }
    const found = rowOf((column) => (Object.hasOwn(row, column) ? row[column] : undefined), columns as LogColumns, line);
    if (!isSkip(found)) return found;
    r.onSkip?.(found);
    return undefined;
  };
  for await (const piece of text) {
    const lines = (rest + piece).split('\n');
    rest = lines.pop()!;
    for (const raw of lines) {
      const row = one(raw);
      if (row) yield row;
    }
  }
  if (rest !== '') {
    const row = one(rest);
    if (row) yield row;
  }
  if (columns.question === undefined) {
    const named = r.named.question;
    const wanted = named === undefined ? `no line has a question key (looked for ${lookedFor('question')})` : `no line has the key "${named}" (--question-column)`;
    const keys = firstKeys === undefined ? 'it has no JSON object' : `the first object's keys: ${firstKeys.join(', ') || 'none'}`;
    throw new InputError([{ file, line: 0, message: `${wanted}; ${keys}${named === undefined ? '; name the question\'s key with --question-column' : ''}` }]);
  }
  if (r.named.stratify !== undefined && columns.stratify === undefined) {
    throw new InputError([{ file, line: 0, message: `no line has the key "${r.named.stratify}" (--stratify)` }]);
  }
}

/**
 * The columns of a JSONL log, each taken from the first line that has it (then kept for every line); undefined
 * while no line has had a question key. A named --stratify key is taken as named.
 */
function resolve(keys: readonly string[], columns: Partial<LogColumns>, r: LogReading, line: number): string | undefined {
  const before = columns.question;
  for (const kind of ['question', 'language', 'timestamp', 'user'] as const) {
    if (columns[kind] !== undefined) continue;
    const column = columnIn(keys, kind, r.named[kind]);
    if (column !== undefined) columns[kind] = column;
  }
  if (r.named.stratify !== undefined) columns.stratify ??= namedIn(keys, r.named.stratify);
  if (before === undefined && columns.question !== undefined) r.onColumns?.(columns as LogColumns, line);
  return columns.question;
}
