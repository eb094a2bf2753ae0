import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';
import { extname } from 'node:path';
import { createInterface } from 'node:readline';
import { parse } from 'csv-parse';
import { InputError, type InputProblem } from '../errors.js';
import { IdHashes } from './ids.js';
import type { Question } from '../model/question.js';
import { parseRow, type RawRow } from './row.js';

export interface Dataset {
  path: string;
  /** sha256 of the file's bytes, to tell whether two runs asked the same questions. */
  sha256: string;
  questions: Question[];
  /** Every column seen (CSV header or JSONL keys). */
  columns: string[];
}

interface Row {
  row: RawRow;
  line: number;
}

/** A dataset read without judging it: the good rows, and a problem for each bad one. */
export interface DatasetScan extends Dataset {
  problems: InputProblem[];
  /** The first line each column appears on (1 for a CSV header). */
  columnLines: Map<string, number>;
}

/**
 * Reads a CSV or JSONL question set as a stream. Every bad row is collected and reported at once,
 * as `file:line: what is wrong (what was expected)`, before anything is sent.
 */
export async function readDataset(path: string): Promise<Dataset> {
  const { problems, columnLines: _, ...dataset } = await scanDataset(path);
  if (problems.length > 0) throw new InputError(problems);
  return dataset;
}

/** Reads every row, collecting problems instead of throwing (a missing file still throws). */
export async function scanDataset(path: string): Promise<DatasetScan> {
  const questions: Question[] = [];
  const { problems, duplicateLines, ...scan } = await checkQuestions(path, (q) => questions.push(q));
  const kept = duplicateLines.size === 0 ? questions : questions.filter((q) => !duplicateLines.has(q.line));
  return { ...scan, questions: kept, problems };
}

/**
 * One pass over a dataset that keeps no question: the sha256, every problem (bad rows, duplicate ids),
 * and each good question handed to `visit` (a repeated id's later rows too: they are problems, so a run
 * stops there anyway). A run checks its dataset this way before anything is sent, then reads the questions
 * again with `questionsOf`.
 */
export async function checkQuestions(
  path: string,
  visit: (question: Question) => void,
): Promise<Omit<DatasetScan, 'questions'> & { count: number; duplicateLines: Set<number> }> {
  const hash = createHash('sha256');
  const problems: InputProblem[] = [];
  const columns = new Map<string, number>();
  const ids = new IdHashes();
  let count = 0;
  const jsonl = isJsonl(path);
  for await (const { question, row } of parsedRows(path, problems, (chunk) => hash.update(chunk))) {
    for (const key of Object.keys(row)) if (!columns.has(key)) columns.set(key, jsonl ? question.line : 1);
    ids.add(question.id, question.line);
    count++;
    visit(question);
  }
  const duplicateLines = await duplicateIds(path, ids.collidingLines(), problems);
  if (problems.length === 0 && count === 0) {
    problems.push({ file: path, line: 1, message: 'the dataset has no questions (expected a header row and one row per question)' });
  }
  return { path, sha256: hash.digest('hex'), count: count - duplicateLines.size, columns: [...columns.keys()], columnLines: columns, problems, duplicateLines };
}

/** Reads the rows whose id hashes collide once more, and reports each id used again; returns those later lines. */
async function duplicateIds(path: string, candidates: Set<number>, problems: InputProblem[]): Promise<Set<number>> {
  const repeated = new Set<number>();
  if (candidates.size === 0) return repeated;
  const firstLine = new Map<string, number>();
  for await (const { question } of parsedRows(path, [])) {
    if (!candidates.has(question.line)) continue;
    const first = firstLine.get(question.id);
    if (first === undefined) firstLine.set(question.id, question.line);
    else {
      problems.push({ file: path, line: question.line, message: `id "${question.id}" is already used at line ${first} (ids must be unique)` });
      repeated.add(question.line);
    }
  }
  problems.sort((a, b) => a.line - b.line);
  return repeated;
}

/** The sha256 of a dataset's bytes, as a run records it, without reading its rows. */
export async function datasetSha256(path: string): Promise<string> {
  const hash = createHash('sha256');
  const stream = await open(path).then((handle) => handle.createReadStream(), (error: unknown) => {
    throw readFailure(error, path);
  });
  for await (const chunk of stream) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** The questions of a dataset already checked, read again as a stream in file order. */
export async function* questionsOf(path: string): AsyncGenerator<Question> {
  const problems: InputProblem[] = [];
  for await (const { question } of parsedRows(path, problems)) yield question;
  if (problems.length > 0) throw new InputError(problems); // the file changed since it was checked
}

async function* parsedRows(path: string, problems: InputProblem[], onChunk?: (chunk: string | Buffer) => void): AsyncGenerator<{ question: Question; row: RawRow }> {
  const stream = await open(path).then((handle) => handle.createReadStream(), (error: unknown) => {
    throw readFailure(error, path);
  });
  if (onChunk) stream.on('data', onChunk);
  const rows = isJsonl(path) ? jsonlRows(stream, path, problems) : csvRows(stream, path, problems);
  try {
    for await (const { row, line } of rows) {
      const result = parseRow(row, line, String(line));
      if (result.ok) yield { question: result.question, row };
      else for (const message of result.problems) problems.push({ file: path, line, message });
    }
  } catch (error) {
    throw readFailure(error, path);
  } finally {
    // a reader that stops early (a run stopped by Ctrl-C or the circuit breaker) must not leave the file open:
    // Node would close it on garbage collection, with a warning (DEP0137)
    stream.destroy();
  }
}

const isJsonl = (path: string): boolean => ['.jsonl', '.ndjson', '.json'].includes(extname(path).toLowerCase());

function readFailure(error: unknown, path: string): Error {
  const e = error as NodeJS.ErrnoException;
  if (e.code === 'ENOENT') return new InputError([{ file: path, line: 0, message: 'no such file' }]);
  if (e.code === 'EISDIR') return new InputError([{ file: path, line: 0, message: 'is a directory (expected a .csv or .jsonl file)' }]);
  if (e.code === 'EACCES') return new InputError([{ file: path, line: 0, message: 'permission denied' }]);
  return error as Error;
}

async function* jsonlRows(stream: NodeJS.ReadableStream, path: string, problems: InputProblem[]): AsyncGenerator<Row> {
  let line = 0;
  for await (const raw of createInterface({ input: stream, crlfDelay: Infinity })) {
    line++;
    const text = line === 1 ? raw.replace(/^\uFEFF/, '') : raw;
    if (text.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      problems.push({ file: path, line, message: `not valid JSON: ${(error as Error).message} (expected one JSON object per line)` });
      continue;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      problems.push({ file: path, line, message: 'expected a JSON object such as {"question": "..."}' });
      continue;
    }
    yield { row: value as RawRow, line };
  }
}

async function* csvRows(stream: NodeJS.ReadableStream, path: string, problems: InputProblem[]): AsyncGenerator<Row> {
  const parser = parse({ bom: true, raw: true, skip_empty_lines: true, relax_column_count: true });
  stream.on('error', (error) => parser.destroy(error));
  stream.pipe(parser);
  let header: string[] | undefined;
  let breaksBefore = 0; // line breaks in the raw text of earlier records
  try {
    for await (const { record, raw } of parser as AsyncIterable<{ record: string[]; raw: string }>) {
      const line = 1 + breaksBefore + countBreaks(/^[\r\n]*/.exec(raw)?.[0] ?? '');
      breaksBefore += countBreaks(raw);
      if (!header) {
        header = record.map((h) => h.trim());
        if (!header.includes('question')) {
          problems.push({ file: path, line, message: `the header has no "question" column (found: ${header.join(', ')})` });
          return;
        }
        continue;
      }
      if (record.length !== header.length) {
        problems.push({ file: path, line, message: `has ${record.length} fields, the header has ${header.length} (quote fields that hold commas)` });
        continue;
      }
      const row: RawRow = {};
      header.forEach((name, i) => (row[name] = record[i]));
      yield { row, line };
    }
  } catch (error) {
    const e = error as { code?: string; lines?: number; message: string };
    if (!e.code?.startsWith('CSV_')) throw error;
    problems.push({ file: path, line: e.lines ?? 0, message: `unreadable CSV: ${e.message}` });
  }
}

const countBreaks = (text: string): number => text.match(/\r\n|\r|\n/g)?.length ?? 0;
