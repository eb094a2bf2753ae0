import { createHash } from 'node:crypto';
import type { ReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { CsvError, parse } from 'csv-parse';
import { DatasetChangedError, InputError, type InputProblem } from '../errors.js';
import { countBreaks, csvProblem, type CsvParseError } from './csv-errors.js';
import { decodeLines, Undecodable } from './decode.js';
import { FingerprintRecorder, stampDifference, stampOf, verified, type FileStamp } from './fingerprint.js';
import { IdHashes } from '../util/id-hashes.js';
import { isConversation, questionsOfItem, type DatasetItem, type Question } from '../model/question.js';
import { conversationOfRows, parseConversationLine, type ConversationResult } from './conversation.js';
import { isBlank, parseRow, type RawRow } from './row.js';
import { canonicalColumn, columnProblem, MAX_COLUMNS, tooManyColumns } from './columns.js';
import { MetadataReader, type MetadataSummary } from './metadata.js';
import { RegionLanguageCounter, type RegionLanguages } from './language-note.js';
import { isJudged } from './unlabeled-note.js';
import { openDataset, readFailure, type DatasetSource, type OpenOptions } from './source.js';
import { setOwn } from '../util/own.js';
import { cellValue } from '../model/csv-cell.js';
import { cut, quote, quoteList } from '../model/quote.js';
import { parseJsonText, type JsonTextError } from '../util/json-lines.js';
import { limits } from '../util/limits.js';

export interface Dataset {
  path: string;
  /** sha256 of the file's bytes, to tell whether two runs asked the same questions. */
  sha256: string;
  /** Single questions and the turns of conversations, in file order (a turn has `conversation`). */
  questions: Question[];
  /** How many conversations the questions' turns make. */
  conversations: number;
  /** Every column seen (CSV header or JSONL keys). */
  columns: string[];
  /** The dataset's own columns, kept per question as metadata (`Question.meta`), and what was left out or cut. */
  metadata: MetadataSummary;
  /** The questions whose language was written with a region (`en-US`), asked in its ISO 639-1 code: for one note. */
  regionLanguages: RegionLanguages;
  /** Questions (turns included) that expect anything of their answer: none, and every one is unlabeled. */
  judged: number;
}

interface Row {
  row: RawRow;
  line: number;
}

/** A dataset read without judging it: the good rows, and a problem for each bad one. */
export interface DatasetScan extends Dataset {
  problems: InputProblem[];
  /** The first line each column appears on (1 for a CSV header), on any row, good or bad. */
  columnLines: Map<string, number>;
}

/**
 * Reads a CSV or JSONL question set as a stream. Every bad row is collected and reported at once,
 * as `file:line: what is wrong (what was expected)`, before anything is sent.
 */
export async function readDataset(dataset: string | DatasetSource, options: OpenOptions = {}): Promise<Dataset> {
  const { problems, columnLines: _, ...read } = await scanDataset(dataset, options);
  if (problems.length > 0) throw new InputError(problems);
  return read;
}

/** Reads every row, collecting problems instead of throwing (a missing file still throws). */
export async function scanDataset(dataset: string | DatasetSource, options: OpenOptions = {}): Promise<DatasetScan> {
  return withSource(dataset, options, async (source) => {
    const items: DatasetItem[] = [];
    const { problems, duplicateLines, count: _, ...scan } = await checkQuestions(source, (item) => items.push(item));
    const kept = duplicateLines.size === 0 ? items : items.filter((item) => !duplicateLines.has(item.line));
    return { ...scan, questions: kept.flatMap(questionsOfItem), problems };
  });
}

/** Runs `f` on an opened dataset; one opened here (from a path) is closed after. */
async function withSource<T>(dataset: string | DatasetSource, options: OpenOptions, f: (source: DatasetSource) => Promise<T>): Promise<T> {
  if (typeof dataset !== 'string') return f(dataset);
  const source = await openDataset(dataset, options);
  try {
    return await f(source);
  } finally {
    await source.close();
  }
}

/** Every id of an item with its line: a question's; a conversation's and its turns'. */
function* idsOf(item: DatasetItem): Generator<{ id: string; line: number }> {
  yield { id: item.id, line: item.line };
  if (isConversation(item)) for (const t of item.turns) yield { id: t.id, line: t.line };
}

/**
 * One pass over a dataset that keeps no question: the sha256, every problem (bad rows, duplicate ids, two
 * conversations of one username), and each good item, a question or a conversation, handed to `visit` (a
 * repeated id's later rows too: they are problems, so a run stops there anyway). A run checks its dataset this way
 * before anything is sent, then reads the items again with `itemsOf`, which checks that it reads the same bytes
 * (`source.checked`). `count` counts questions: single questions and turns.
 */
export async function checkQuestions(
  source: DatasetSource,
  visit: (item: DatasetItem) => void,
): Promise<Omit<DatasetScan, 'questions'> & { count: number; duplicateLines: Set<number> }> {
  const path = source.name;
  const recorder = new FingerprintRecorder();
  let opened: FileStamp | undefined;
  const problems: InputProblem[] = [];
  const columns = new Map<string, number>();
  const ids = new IdHashes();
  const users = new Map<string, { id: string; line: number }>();
  let count = 0;
  let judged = 0;
  let conversations = 0;
  const metadata = new MetadataReader();
  const regions = new RegionLanguageCounter();
  const pass: Pass = {
    opened: (stamp) => (opened = stamp),
    bytes: (chunks) => tapped(chunks, (chunk) => recorder.update(chunk)),
    columns: (keys, line) => {
      for (const key of keys) if (!columns.has(key)) columns.set(key, line);
    },
    metadata,
  };
  for await (const item of parsedItems(source, problems, pass)) {
    ids.add(item.id, item.line);
    for (const q of questionsOfItem(item)) {
      regions.add(q);
      if (isJudged(q)) judged++;
    }
    if (isConversation(item)) {
      for (const t of item.turns) ids.add(t.id, t.line);
      conversations++;
      count += item.turns.length;
      const user = item.username;
      const other = user === undefined ? undefined : users.get(user);
      if (other) {
        problems.push({
          file: path,
          line: item.line,
          message: `conversation ${quote(item.id)} is asked as ${quote(user)}, as conversation ${quote(other.id)} (line ${other.line}) is: two conversations of one user would share the service's state (give each its own username, or none: a fresh one is made per run)`,
        });
      } else if (user !== undefined) users.set(user, { id: item.id, line: item.line });
    } else count++;
    visit(item);
  }
  // a column named like a known one, or as an expectation (expected_*), would be ignored or kept as a note, and its
  // questions judged without it: every one is an error
  const nearMisses = [...columns].flatMap(([column, line]) => {
    const message = columnProblem(column);
    return message !== undefined ? [{ file: path, line, message }] : [];
  });
  if (nearMisses.length > 0) problems.splice(0, problems.length, ...[...problems, ...nearMisses].sort((a, b) => a.line - b.line));
  const duplicates = await duplicateIds(source, ids.collidingLines(), problems);
  const duplicateLines = duplicates.lines;
  if (problems.length === 0 && count === 0) {
    problems.push({ file: path, line: 1, message: 'the dataset has no questions (expected a header row and one row per question)' });
  }
  if (problems.length === 0) {
    const now = await stat(source.file).then(stampOf, () => undefined);
    const diff = now === undefined ? 'deleted' : (stampDifference(opened!, now) ?? (recorder.bytes !== opened!.size ? `${recorder.bytes} of ${opened!.size} bytes read` : undefined));
    if (diff) throw new DatasetChangedError(`${path} changed while it was being checked (${diff}): nothing was sent; run again once the file is no longer being written`, 2);
  }
  source.checked = recorder.finish(opened!);
  return {
    path,
    sha256: source.checked.sha256,
    count: count - duplicates.dropped,
    conversations,
    columns: [...columns.keys()],
    columnLines: columns,
    metadata: metadata.summary,
    regionLanguages: regions.summary,
    judged,
    problems,
    duplicateLines,
  };
}

/**
 * Before the asking pass: refuses (exit 2, nothing sent yet) a dataset whose size, modification time or
 * inode changed since it was checked.
 */
export async function checkUnchanged(source: DatasetSource): Promise<void> {
  const diff = await changedSinceCheck(source);
  if (diff) throw new DatasetChangedError(`${source.name} changed after it was checked, before anything was sent (${diff}): run again once the file is no longer being written`, 2);
}

/** How a checked dataset's file differs now (size, modification time, inode; `deleted`), or undefined when it does not. */
export async function changedSinceCheck(source: DatasetSource): Promise<string | undefined> {
  const was = source.checked?.stat;
  if (was === undefined) return undefined;
  const now = await stat(source.file).then(stampOf, () => undefined);
  return now === undefined ? 'deleted' : stampDifference(was, now);
}

/**
 * Reads the items whose id hashes collide once more, and reports each item that uses an id again (once, at its
 * line); returns the lines of those later items and how many questions they hold.
 */
async function duplicateIds(source: DatasetSource, candidates: Set<number>, problems: InputProblem[]): Promise<{ lines: Set<number>; dropped: number }> {
  const path = source.name;
  const repeated = { lines: new Set<number>(), dropped: 0 };
  if (candidates.size === 0) return repeated;
  const firstLine = new Map<string, number>();
  for await (const item of parsedItems(source, [])) {
    const ids = [...idsOf(item)];
    if (!ids.some(({ line }) => candidates.has(line))) continue;
    const again = ids.find(({ id }) => firstLine.has(id));
    for (const { id, line } of ids) if (!firstLine.has(id)) firstLine.set(id, line);
    if (again === undefined) continue;
    const hint = isConversation(item) ? '; in a CSV, the rows of a conversation are consecutive' : '';
    problems.push({ file: path, line: item.line, message: `id ${quote(again.id)} is already used at line ${firstLine.get(again.id)} (ids must be unique${hint})` });
    repeated.lines.add(item.line);
    repeated.dropped += questionsOfItem(item).length;
  }
  problems.sort((a, b) => a.line - b.line);
  return repeated;
}

/** The sha256 of a dataset's bytes, as a run records it, without reading its rows. */
export async function datasetSha256(dataset: string | DatasetSource): Promise<string> {
  const file = typeof dataset === 'string' ? dataset : dataset.file;
  const hash = createHash('sha256');
  const stream = await open(file).then((handle) => handle.createReadStream(), (error: unknown) => {
    throw readFailure(error, typeof dataset === 'string' ? dataset : dataset.name);
  });
  try {
    for await (const chunk of stream) hash.update(chunk as Buffer);
  } catch (error) {
    throw readFailure(error, typeof dataset === 'string' ? dataset : dataset.name); // a directory opens, then fails to read
  }
  return hash.digest('hex');
}

/**
 * The items (questions and conversations) of a dataset already checked, read again as a stream in file order. Each
 * block of bytes is compared with what the check pass read before any of its items is handed on: a file changed
 * since (rewritten, truncated, grown) throws a DatasetChangedError (exit 3) and nothing of the change is asked.
 */
export async function* itemsOf(source: DatasetSource): AsyncGenerator<DatasetItem> {
  const checked = source.checked;
  if (checked === undefined) throw new Error('questionsOf: check the dataset first (checkQuestions)');
  const changed = (what: string): DatasetChangedError =>
    new DatasetChangedError(
      `${source.name} changed while its questions were being asked (${what}): the run stopped, and nothing of the change was asked. ` +
        `The questions asked before it came from the file as it was checked (sha256 ${checked.sha256}) and are kept`,
      3,
    );
  const pass: Pass = {
    opened: (now) => {
      const diff = stampDifference(checked.stat, now);
      if (diff) throw changed(diff);
    },
    bytes: (chunks) => verified(chunks, checked, changed),
  };
  const problems: InputProblem[] = [];
  yield* parsedItems(source, problems, pass);
  if (problems.length > 0) throw new InputError(problems); // cannot happen: the same bytes were checked
}

/**
 * What a pass does besides parsing: note the file's stamp as it is opened, watch or check the bytes, note the columns
 * of every row (good or bad) with its line, read the rows' metadata (a fresh reader when not given).
 */
interface Pass {
  opened?: (stamp: FileStamp) => void;
  bytes?: (chunks: AsyncIterable<Buffer>) => AsyncIterable<Buffer>;
  columns?: (keys: readonly string[], line: number) => void;
  metadata?: MetadataReader;
}

async function* tapped(chunks: AsyncIterable<Buffer>, f: (chunk: Buffer) => void): AsyncGenerator<Buffer> {
  for await (const chunk of chunks) {
    f(chunk);
    yield chunk;
  }
}

/**
 * The items of a dataset as parsed, each question and turn with its metadata. A JSONL line with `turns` is a
 * conversation; consecutive rows with the same `conversation` (a CSV, or flat JSONL rows) are one too; any other row
 * is a question. A bad item is reported (at each of its lines) and not yielded.
 */
async function* parsedItems(source: DatasetSource, all: InputProblem[], pass: Pass = {}): AsyncGenerator<DatasetItem> {
  const path = source.name;
  const problems = capped(all, path);
  const handle = await open(source.file).catch((error: unknown) => {
    throw readFailure(error, path);
  });
  let stream: ReadStream;
  try {
    pass.opened?.(stampOf(await handle.stat()));
    stream = handle.createReadStream();
  } catch (error) {
    await handle.close();
    throw error;
  }
  const bytes = pass.bytes ? pass.bytes(stream as AsyncIterable<Buffer>) : (stream as AsyncIterable<Buffer>);
  const text = decodeLines(bytes, { file: path, encoding: source.encoding, problems });
  const rows = source.format === 'jsonl' ? jsonlRows(text, path, problems) : csvRows(text, path, problems, (header) => pass.columns?.(header, 1));
  const metadata = pass.metadata ?? new MetadataReader();
  const withMeta = (q: Question, row: RawRow, line: number, shared?: Record<string, string>): void => {
    const own = metadata.of(row, line);
    if (own || shared) q.meta = { ...shared, ...own };
  };
  // the rows of the conversation being read (consecutive rows with one `conversation`)
  let grouping: { id: string; rows: Row[] } | undefined;
  // a conversation of rows (a turn a row), or a JSONL line with `turns` (its own keys are every turn's, a turn's its alone)
  const conversation = (result: ConversationResult, rows: readonly Row[], line?: Row): DatasetItem | undefined => {
    if (!result.ok) {
      for (const p of result.problems) problems.push({ file: path, ...p });
      return undefined;
    }
    const turns = result.conversation.turns;
    if (line === undefined) turns.forEach((t, i) => withMeta(t, rows[i]!.row, rows[i]!.line));
    else {
      const shared = metadata.of(line.row, line.line);
      turns.forEach((t, i) => withMeta(t, (line.row['turns'] as RawRow[])[i]!, line.line, shared));
    }
    return result.conversation;
  };
  const close = (): DatasetItem | undefined => {
    if (grouping === undefined) return undefined;
    const { id, rows: grouped } = grouping;
    grouping = undefined;
    return conversation(conversationOfRows(id, grouped), grouped);
  };
  try {
    for await (const r of rows) {
      const { row, line } = r;
      pass.columns?.(keysOf(r), line);
      const id = isBlank(row['conversation']) ? undefined : String(row['conversation']).trim();
      if (grouping !== undefined && id === grouping.id) {
        grouping.rows.push(r);
        continue;
      }
      const done = close();
      if (done) yield done;
      if (id !== undefined) grouping = { id, rows: [r] };
      else if (source.format === 'jsonl' && 'turns' in row) {
        const found = conversation(parseConversationLine(row, line), [r], r);
        if (found) yield found;
      } else {
        const result = parseRow(row, line, String(line));
        if (result.ok) {
          withMeta(result.question, row, line);
          yield result.question;
        } else for (const message of result.problems) problems.push({ file: path, line, message });
      }
    }
    const done = close();
    if (done) yield done;
  } catch (error) {
    if (error instanceof Undecodable || error instanceof TooManyProblems) return; // reported as a problem at its line
    throw readFailure(error, path);
  } finally {
    // a reader that stops early (a run stopped by Ctrl-C or the circuit breaker) must not leave the file open:
    // Node would close it on garbage collection, with a warning (DEP0137)
    stream.destroy();
  }
}

/** Where rows' problems go: an array, or one that stops the reading once full (capped). */
type Problems = Pick<InputProblem[], 'push'>;

/** The most problems a read collects: a file that is no question set (a log, a binary file) stops there, in bounded memory. */
const MAX_PROBLEMS = 1000;

class TooManyProblems extends Error {
  override name = 'TooManyProblems';
}

/** `problems`, into which a push that fills it to MAX_PROBLEMS adds a last problem saying the reading stopped, then throws TooManyProblems. */
function capped(problems: InputProblem[], file: string): Problems {
  return {
    push: (...more: InputProblem[]): number => {
      const n = problems.push(...more);
      if (n < MAX_PROBLEMS) return n;
      problems.push({ file, line: more.at(-1)?.line ?? 0, message: `reading stopped after ${MAX_PROBLEMS} problems: is this the question set you meant?` });
      throw new TooManyProblems();
    },
  };
}

async function* jsonlRows(text: AsyncIterable<string>, path: string, problems: Problems): AsyncGenerator<Row> {
  let line = 0;
  let rest = '';
  for await (const piece of text) {
    const lines = (rest + piece).split('\n');
    rest = lines.pop()!;
    for (const raw of lines) {
      const row = jsonlRow(raw, ++line, path, problems);
      if (row) yield row;
    }
  }
  if (rest !== '') {
    const row = jsonlRow(rest, ++line, path, problems);
    if (row) yield row;
  }
}

/** The keys of a row, and of a JSONL conversation's turns. */
function keysOf({ row }: Row): string[] {
  const turns = row['turns'];
  const inTurns = Array.isArray(turns) ? turns.flatMap((t: unknown) => (typeof t === 'object' && t !== null && !Array.isArray(t) ? Object.keys(t) : [])) : [];
  return [...Object.keys(row), ...inTurns];
}

function jsonlRow(raw: string, line: number, path: string, problems: Problems): Row | undefined {
  const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
  if (text.trim() === '') return undefined;
  let value: unknown;
  try {
    value = parseJsonText(text);
  } catch (error) {
    const e = error as JsonTextError;
    problems.push({ file: path, line, message: e.deep ? `${e.message} (expected one JSON object per line, such as {"question": "..."})` : `not valid JSON: ${e.message} (expected one JSON object per line)` });
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    problems.push({ file: path, line, message: 'expected a JSON object such as {"question": "..."}' });
    return undefined;
  }
  const turns = (value as RawRow)['turns'];
  let widest = { what: 'the row', keys: Object.keys(value).length };
  if (Array.isArray(turns)) {
    turns.forEach((t: unknown, i) => {
      const keys = typeof t === 'object' && t !== null ? Object.keys(t).length : 0;
      if (keys > widest.keys) widest = { what: `turn ${i + 1} of the row`, keys };
    });
  }
  if (widest.keys > MAX_COLUMNS) {
    problems.push({ file: path, line, message: tooManyColumns(widest.what, widest.keys, 'keys') });
    return undefined;
  }
  return { row: value as RawRow, line };
}

/**
 * The separator of a CSV dataset, read from its header: a comma, or a semicolon or tab when that is what sets a
 * `question` column apart (spreadsheets in many European locales save "CSV" with semicolons). `isQuestion` says
 * which names (canonicalColumn) are that column: `question` for a question set, others for a log (sample).
 */
export function csvDelimiter(start: string, isQuestion: (name: string) => boolean = (name) => name === 'question'): ',' | ';' | '\t' {
  const header = start.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/, 1)[0] ?? '';
  // `Question` counts too: such a header is then refused naming the column, not read as one long column name
  const names = (d: string): string[] => header.split(d).map((h) => canonicalColumn(h.trim().replace(/^"(.*)"$/, '$1')));
  if (names(',').some(isQuestion)) return ',';
  return (([';', '\t'] as const).find((d) => names(d).some(isQuestion)) ?? ',');
}

/**
 * A problem for each name a CSV header gives more than once (as the reader names columns: trimmed), in the order of
 * their first column: a row would keep only the last one's value. Empty names (the separators a spreadsheet leaves
 * after the last column) are no columns.
 */
function repeatedColumns(header: readonly string[]): string[] {
  const places = new Map<string, number[]>();
  header.forEach((name, i) => {
    if (name === '') return;
    const at = places.get(name);
    if (at) at.push(i + 1);
    else places.set(name, [i + 1]);
  });
  return [...places].flatMap(([name, at]) => {
    if (at.length < 2) return [];
    const times = at.length === 2 ? 'twice' : `${at.length} times`;
    return [`column ${quote(name)} appears ${times} (columns ${at.slice(0, -1).join(', ')} and ${at.at(-1)}): each column is named once (rename or remove the others)`];
  });
}

async function* csvRows(text: AsyncIterable<string>, path: string, problems: Problems, onHeader: (names: string[]) => void): AsyncGenerator<Row> {
  const pieces = text[Symbol.asyncIterator]();
  const first = await pieces.next();
  const head = first.done ? '' : first.value;
  // a quote inside an unquoted field (what does "floor" mean?) is taken as written, as spreadsheets read it
  const parser = parse({ raw: true, skip_empty_lines: true, relax_column_count: true, relax_quotes: true, delimiter: csvDelimiter(head), max_record_size: limits.rowBytes });
  async function* again(): AsyncGenerator<string> {
    if (!first.done) yield head;
    for (let next = await pieces.next(); !next.done; next = await pieces.next()) yield next.value;
  }
  const input = Readable.from(again(), { highWaterMark: 1 }); // one piece ahead of the parser, not 16
  input.on('error', (error) => parser.destroy(error));
  input.pipe(parser);
  let header: string[] | undefined;
  let breaksBefore = 0; // line breaks in the raw text of earlier records
  try {
    for await (const { record, raw } of parser as AsyncIterable<{ record: string[]; raw: string }>) {
      const line = 1 + breaksBefore + countBreaks(/^[\r\n]*/.exec(raw)?.[0] ?? '');
      breaksBefore += countBreaks(raw);
      if (!header) {
        if (record.length > MAX_COLUMNS) {
          problems.push({ file: path, line, message: tooManyColumns('the header', record.length, 'columns') });
          return;
        }
        header = record.map((h) => h.trim());
        onHeader(header);
        const repeated = repeatedColumns(header);
        for (const message of repeated) problems.push({ file: path, line, message });
        if (!header.includes('question')) {
          problems.push({ file: path, line, message: `the header has no "question" column (found: ${quoteList(header, 20, cut)})` });
          return;
        }
        if (repeated.length > 0) return; // each row would keep the last of the columns: none is read
        continue;
      }
      if (record.every((cell) => cell.trim() === '')) continue; // a row of separators only (,,,), as spreadsheets leave below the data: blank
      if (record.length !== header.length) {
        problems.push({ file: path, line, message: `has ${record.length} fields, the header has ${header.length} (quote fields that hold commas)` });
        continue;
      }
      const row: RawRow = {};
      header.forEach((name, i) => setOwn(row, name, cellValue(record[i]!))); // a "__proto__" column is a column; `'=x` is =x (model/csv-cell.ts)
      yield { row, line };
    }
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    problems.push({ file: path, ...csvProblem(error as CsvParseError) });
  } finally {
    input.destroy();
  }
}
