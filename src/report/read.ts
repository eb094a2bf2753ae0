import { createReadStream, existsSync } from 'node:fs';
import { access, open, readFile, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { z } from 'zod';
import { ConfigError } from '../errors.js';
import { QuestionResultSchema, ReportSchema, schemaMajor, SCHEMA_VERSION, type QuestionResult, type Report } from '../model/report.js';
import { fromReport, type ReportData, type ReportHead } from '../model/source.js';
import { RecordSource } from '../util/records.js';

const cannotRead = (path: string, error: unknown): ConfigError =>
  new ConfigError(`${path}: cannot read the report (${(error as NodeJS.ErrnoException).code ?? String(error)})`);

function parseJson(path: string, text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new ConfigError(`${path}: not JSON (${(error as Error).message}); expected a report.json written by answer-eval`);
  }
}

/**
 * A report.json that ends too soon (`why`: where it ends): written or copied only in part. Beside its run's
 * journal, `run --resume` writes it again without asking anything (every result is in the journal).
 */
function cutOff(path: string, why: string): ConfigError {
  const dir = dirname(path);
  const fix = existsSync(join(dir, 'journal.jsonl')) ? `; answer-eval run --resume ${dir} writes it again from the run's journal` : '';
  return new ConfigError(`${path}: cut off: ${why} (it was not written or copied completely, e.g. on a full disk or by a transfer cut short)${fix}`);
}

/** Whether JSON.parse failed because the text ended before its value closed (and not at a wrong character). */
function endedEarly(text: string, error: Error): boolean {
  if (error.message.includes('end of JSON input')) return true;
  const at = /at position (\d+)/.exec(error.message);
  return at !== null && Number(at[1]) >= text.trimEnd().length;
}

/** Parses a whole file; one cut off says so. */
function parseWhole(path: string, text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    if (text.trim() === '') throw cutOff(path, 'the file is empty');
    if (endedEarly(text, error as Error)) throw cutOff(path, 'the file ends before its JSON closes');
    return parseJson(path, text);
  }
}

/**
 * The report.json a user named: the file itself, or the one in a run's output directory (`-o DIR`), as trend and
 * merge take them. A directory without one is a ConfigError saying what it holds instead; anything else is left to
 * the reader, which names the file and why it cannot be read.
 */
export async function reportFile(path: string): Promise<string> {
  const isDir = await stat(path).then((s) => s.isDirectory(), () => false);
  if (!isDir) return path;
  const file = join(path, 'report.json');
  if (await exists(file)) return file;
  const journal = await exists(join(path, 'journal.jsonl'));
  throw new ConfigError(
    journal
      ? `${path}: a run directory without report.json (the run stopped before writing its reports); answer-eval run --resume ${path} finishes it and writes them`
      : `${path}: a directory without report.json; expected a report.json written by answer-eval, or the directory a run wrote it to (-o)`,
  );
}

const exists = (path: string): Promise<boolean> => access(path).then(() => true, () => false);

/** Reads a file as JSON; a ConfigError names the file when it is missing, not JSON or cut off. */
export async function readJsonFile(path: string): Promise<unknown> {
  const text = await readFile(path, 'utf8').catch((error: unknown) => {
    throw cannotRead(path, error);
  });
  return parseWhole(path, text);
}

/** Refuses a report of another schema major, naming both versions. */
function checkVersion(path: string, data: unknown): void {
  const version = (data as { schemaVersion?: unknown } | null)?.schemaVersion;
  if (typeof version === 'string' && schemaMajor(version) !== schemaMajor(SCHEMA_VERSION)) {
    throw new ConfigError(`${path}: schemaVersion ${version} cannot be read by this answer-eval (schema ${SCHEMA_VERSION}); use an answer-eval of the same major version`);
  }
}

/** The first issue, where it is: `results[1].outcome: Invalid option ...`. */
function issueAt(prefix: string, issues: readonly z.core.$ZodIssue[]): string {
  const issue = issues[0]!;
  const at = issue.path.reduce<string>((s, k) => (typeof k === 'number' ? `${s}[${k}]` : s ? `${s}.${String(k)}` : String(k)), prefix);
  return `${at || '(top level)'}: ${issue.message}`;
}

/** Validates with `schema`; a ConfigError names the file and the first bad field, e.g. `results[1].outcome`. */
function validate<S extends z.ZodType>(path: string, schema: S, data: unknown): z.output<S> {
  const parsed = schema.safeParse(data);
  if (parsed.success) return parsed.data;
  throw new ConfigError(`${path}: ${issueAt('', parsed.error.issues)} (not a valid answer-eval report; ${parsed.error.issues.length} problem(s))`);
}

/** Validates a report.json already parsed. */
export const parseReport = (path: string, data: unknown): Report => validate(path, ReportSchema, data);

/**
 * Reads and validates a saved report.json. Errors name the file and the first bad field;
 * a report of another schema major is refused, naming both versions.
 */
export async function readReport(given: string): Promise<Report> {
  const path = await reportFile(given);
  const data = await readJsonFile(path);
  checkVersion(path, data);
  return parseReport(path, data);
}

const RESULTS_KEY = Buffer.from(',\n  "results": [');
const HeadSchema = ReportSchema.omit({ results: true });
/** A report this large is read only as a stream: it must be in the layout answer-eval (or jq) writes. */
const WHOLE_FILE_LIMIT = 256 * 1024 * 1024;

/** Refuses to read whole a report too large for one string. */
async function checkWholeSize(path: string): Promise<void> {
  const size = (await stat(path)).size;
  if (size > WHOLE_FILE_LIMIT) {
    throw new ConfigError(`${path}: a report of ${Math.round(size / 1024 / 1024)} MiB must keep the layout answer-eval writes (one result per line, results last) to be read`);
  }
}

/** The head of a report.json (everything before its results, which answer-eval writes last) and where the results begin. */
async function locateHead(path: string): Promise<{ head: ReportHead; resultsAt: number } | undefined> {
  const handle = await open(path).catch((error: unknown) => {
    throw cannotRead(path, error);
  });
  let bytes = Buffer.alloc(0);
  try {
    const chunk = Buffer.alloc(1024 * 1024);
    for (;;) {
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, bytes.length);
      bytes = Buffer.concat([bytes, chunk.subarray(0, bytesRead)]);
      const end = bytes.indexOf(RESULTS_KEY, Math.max(0, bytes.length - bytesRead - RESULTS_KEY.length));
      if (end >= 0) {
        const data = parseJson(path, `${bytes.subarray(0, end).toString('utf8')}\n}`);
        checkVersion(path, data);
        return { head: validate(path, HeadSchema, data), resultsAt: end + RESULTS_KEY.length };
      }
      if (bytesRead === 0 || bytes.length > WHOLE_FILE_LIMIT) return undefined;
    }
  } finally {
    await handle.close();
  }
}

/**
 * Reads the part of a report.json before its results (answer-eval writes them last), so a report of a
 * million questions, far too large for one string, can still be merged or summarized.
 */
export async function readReportHead(given: string): Promise<ReportHead> {
  const path = await reportFile(given);
  const located = await locateHead(path);
  if (located) return located.head;
  return readReport(path).then(({ results: _, ...head }) => head);
}

/**
 * Opens a report.json for reading: its head, validated, and its results read one at a time from the file, in
 * every pass, so a report of any size is read in bounded memory. One first pass checks every result against
 * the schema (errors name `results[i].field`) and keeps where each sits (12 bytes a result).
 *
 * The results are found by the layout answer-eval writes (one result per line) or that `JSON.stringify(r, null, 2)`
 * and jq write (each result from a line `    {` to a line `    }`); any other layout is read whole, up to 256 MiB.
 */
export async function openReport(given: string): Promise<ReportData> {
  const path = await reportFile(given);
  const located = await locateHead(path);
  const indexed = located && (await indexResults(path, located.resultsAt));
  if (located && indexed) return { head: located.head, results: new RecordSource<QuestionResult>([path], indexed.offsets, indexed.lengths, indexed.count) };
  await checkWholeSize(path);
  return fromReport(await readReport(path));
}

/** Where each result of a report.json sits, each checked against the schema; undefined when the layout is not one of ours. */
async function indexResults(path: string, start: number): Promise<{ offsets: Float64Array; lengths: Uint32Array; count: number } | undefined> {
  let offsets = new Float64Array(1024);
  let lengths = new Uint32Array(1024);
  let count = 0;
  const ours = await eachResult(path, start, QuestionResultSchema, (_, from, to) => {
    if (count === offsets.length) {
      offsets = grow(offsets, new Float64Array(count * 2));
      lengths = grow(lengths, new Uint32Array(count * 2));
    }
    offsets[count] = from;
    lengths[count++] = to - from;
  });
  return ours ? { offsets: offsets.slice(0, count), lengths: lengths.slice(0, count), count } : undefined;
}

/**
 * One pass over the results of a report.json from byte `start`, in the layouts openReport reads: each result is
 * parsed, checked against `schema` (errors name `results[i].field`) and handed to `visit` with where it sits.
 * False when the layout is not one of ours (nothing is then to be trusted of what was visited).
 */
async function eachResult<S extends z.ZodType>(path: string, start: number, schema: S, visit: (result: z.output<S>, from: number, to: number) => void): Promise<boolean> {
  let count = 0;
  let recordStart = -1; // a result spread over several lines, from its `    {` line
  let recordLines: string[] = [];
  let ended = false;
  const keep = (from: number, to: number, text: string): void => {
    let data: unknown;
    try {
      data = JSON.parse(text) as unknown;
    } catch (error) {
      throw new ConfigError(`${path}: results[${count}] is not JSON (${(error as Error).message}); expected a report.json written by answer-eval`);
    }
    const parsed = schema.safeParse(data);
    if (!parsed.success) throw new ConfigError(`${path}: ${issueAt(`results[${count}]`, parsed.error.issues)} (not a valid answer-eval report)`);
    count++;
    visit(parsed.data, from, to);
  };
  for await (const { line, at, last } of lines(path, start)) {
    if (ended) {
      if (line.trim() === '}' || line.trim() === '') continue;
      return false; // something after the results: not our layout
    }
    // a last line without its newline, before the results close: the file was cut there, maybe inside a result
    if (last && !line.trim().startsWith(']')) throw cutOff(path, `the file ends before its results close, after ${count} results`);
    const bare = line.replace(/\r$/, '');
    if (recordStart >= 0) {
      recordLines.push(line);
      if (bare === '    }' || bare === '    },') {
        const to = at + 5; // through the closing brace
        keep(recordStart, to, recordLines.join('\n').trim().replace(/,$/, ''));
        recordStart = -1;
        recordLines = [];
      }
      continue;
    }
    const trimmed = bare.trim();
    if (trimmed === '') continue;
    if (trimmed === ']' || trimmed === ']}' || trimmed.startsWith(']')) {
      ended = true;
      if (trimmed !== ']' && trimmed !== ']}') return false;
      continue;
    }
    if (bare === '    {') {
      recordStart = at + 4;
      recordLines = ['{'];
    }
    else if (bare.startsWith('    {')) {
      const text = bare.endsWith(',') ? bare.slice(4, -1) : bare.slice(4);
      keep(at + 4, at + 4 + Buffer.byteLength(text), text);
    } else return false;
  }
  // every line was one of ours: no other layout ends here, nor does any JSON
  if (!ended) throw cutOff(path, `the file ends before its results close, after ${count} results`);
  return true;
}

/**
 * Reads a report.json in one pass: its head, then each result checked against `schema` (a view of a result, e.g.
 * only the fields a caller needs, which is cheaper to check than the whole result) and handed to `visit`, one at a
 * time, so a report of any size is read in bounded memory. A file of another layout is read whole (up to 256 MiB).
 * Errors name the file and the first bad field, as openReport's do.
 */
export async function scanReport<S extends z.ZodType>(given: string, schema: S, visit: (result: z.output<S>) => void): Promise<ReportHead> {
  const path = await reportFile(given);
  const located = await locateHead(path);
  if (located) {
    let seen = 0;
    const ours = await eachResult(path, located.resultsAt, schema, (r) => {
      seen++;
      visit(r);
    });
    if (ours) return located.head;
    // `visit` has had some: too late to read it whole instead
    if (seen > 0) throw await unexpectedLayout(path, seen);
  }
  await checkWholeSize(path);
  const { results, ...head } = await readReport(path);
  results.forEach((r, i) => {
    const parsed = schema.safeParse(r);
    if (!parsed.success) throw new ConfigError(`${path}: ${issueAt(`results[${i}]`, parsed.error.issues)} (not a valid answer-eval report)`);
    visit(parsed.data);
  });
  return head;
}

/**
 * Why a report whose results leave our layout after `seen` of them cannot be scanned. Read whole (only here, to
 * say so): one that cannot be (not JSON, a bad field) throws why; one that can is told how to rewrite it.
 */
async function unexpectedLayout(path: string, seen: number): Promise<ConfigError> {
  await checkWholeSize(path);
  await readReport(path);
  return new ConfigError(
    `${path}: the results leave the layout answer-eval writes (one result per line, then "  ]" and "}") after ${seen} of them; ` +
      `answer-eval report --from ${path} --format json writes it again in that layout`,
  );
}

function grow<T extends Float64Array | Uint32Array>(from: T, to: T): T {
  to.set(from);
  return to;
}

/** The lines of a file from byte `start`, each with the byte offset it begins at; `last` marks one without its newline. */
async function* lines(path: string, start: number): AsyncGenerator<{ line: string; at: number; last?: true }> {
  const stream = createReadStream(path, { start, highWaterMark: 1024 * 1024 });
  let pending: Buffer = Buffer.alloc(0);
  let pendingAt = start;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      let from = 0;
      if (pending.length > 0) {
        // only the line that spans the two chunks is joined: copying every chunk behind it would churn a 1 MiB
        // buffer per chunk, memory the allocator keeps long after (peak RSS)
        const nl = chunk.indexOf(10);
        if (nl < 0) {
          pending = Buffer.concat([pending, chunk]);
          continue;
        }
        const line = Buffer.concat([pending, chunk.subarray(0, nl)]);
        yield { line: line.toString('utf8'), at: pendingAt };
        pendingAt += line.length + 1;
        from = nl + 1;
      }
      for (let nl = chunk.indexOf(10, from); nl >= 0; nl = chunk.indexOf(10, from)) {
        yield { line: chunk.toString('utf8', from, nl), at: pendingAt };
        pendingAt += nl + 1 - from;
        from = nl + 1;
      }
      pending = from < chunk.length ? Buffer.from(chunk.subarray(from)) : Buffer.alloc(0);
    }
    if (pending.length > 0) yield { line: pending.toString('utf8'), at: pendingAt, last: true };
  } finally {
    stream.destroy();
  }
}
