import { access, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { z } from 'zod';
import { ConfigError } from '../errors.js';
import { QuestionResultSchema, ReportSchema, schemaMajor, SCHEMA_VERSION, type QuestionResult, type Report } from '../model/report.js';
import { fromReport, type ReportData, type ReportHead } from '../model/source.js';
import { readBounded, UnreadableFile } from '../util/bounded-read.js';
import { JsonTextError, parseJsonText } from '../util/json-lines.js';
import { limits } from '../util/limits.js';
import { RecordSource } from '../util/records.js';
import { cannotRead, cutOff, eachResultText, locateHead as findHead, type Head } from './layout.js';


function parseJson(path: string, text: string, where = ''): unknown {
  try {
    return parseJsonText(text);
  } catch (error) {
    throw notJson(path, error as JsonTextError, where);
  }
}

const notJson = (path: string, error: JsonTextError, where = ''): ConfigError =>
  new ConfigError(
    error.deep
      ? `${path}: ${where}${error.message}: not a report.json written by answer-eval`
      : `${path}: ${where}${where ? 'is ' : ''}not JSON (${error.message}); expected a report.json written by answer-eval`,
    { cause: error },
  );

/** Whether JSON.parse failed because the text ended before its value closed (and not at a wrong character). */
function endedEarly(text: string, error: Error): boolean {
  if (error.message.includes('end of JSON input')) return true;
  const at = /at position (\d+)/.exec(error.message);
  return at !== null && Number(at[1]) >= text.trimEnd().length;
}

/** Parses a whole file; one cut off says so. */
function parseWhole(path: string, text: string): unknown {
  try {
    return parseJsonText(text);
  } catch (error) {
    if (text.trim() === '') throw cutOff(path, 'the file is empty');
    if (!(error instanceof JsonTextError)) throw error;
    if (endedEarly(text, error)) throw cutOff(path, 'the file ends before its JSON closes', { cause: error });
    throw notJson(path, error);
  }
}

/**
 * The report.json a user named: the file itself, or the one in a run's output directory (`-o DIR`), as trend and
 * merge take them. A directory without one is a ConfigError saying what it holds instead; anything else is left to
 * the reader, which names the file and why it cannot be read.
 */
export async function reportFile(path: string): Promise<string> {
  const info = await stat(path).catch(() => undefined);
  if (info === undefined || info.isFile()) return path;
  // read more than once, by offset: a pipe or a device (/dev/zero) cannot be
  if (!info.isDirectory()) throw new ConfigError(`${path}: not a regular file (${kindOf(info)}); expected a report.json written by answer-eval, saved to a file`);
  const file = join(path, 'report.json');
  if (await exists(file)) return file;
  const journal = await exists(join(path, 'journal.jsonl'));
  throw new ConfigError(
    journal
      ? `${path}: a run directory without report.json (the run stopped before writing its reports); answer-eval run --resume ${path} finishes it and writes them`
      : `${path}: a directory without report.json; expected a report.json written by answer-eval, or the directory a run wrote it to (-o)`,
  );
}

const kindOf = (info: import('node:fs').Stats): string =>
  info.isFIFO() ? 'a pipe' : info.isCharacterDevice() ? 'a character device' : info.isBlockDevice() ? 'a block device' : info.isSocket() ? 'a socket' : 'not a file';

const exists = (path: string): Promise<boolean> => access(path).then(() => true, () => false);

/**
 * Reads a file as JSON, whole (up to `limits.wholeReportBytes`); a ConfigError names the file when it is missing, too
 * large, not JSON (a NUL byte is refused at once) or cut off.
 */
export async function readJsonFile(path: string): Promise<unknown> {
  const bytes = await readBounded(path, { maxBytes: limits.wholeReportBytes, text: true }).catch((error: unknown) => {
    if (error instanceof UnreadableFile) {
      throw new ConfigError(`${path}${error.line > 0 ? `:${error.line}` : ''}: ${error.message} (not a report.json answer-eval can read whole: one it wrote keeps a result per line, and is read a result at a time)`, { cause: error });
    }
    throw cannotRead(path, error);
  });
  return parseWhole(path, bytes.toString('utf8'));
}

/**
 * What a JSON file given for a report.json is instead, when it is another file answer-eval writes (its head is
 * enough): a compare.json names its two reports (`base.file`, `head.file`) and has no `run`. Undefined otherwise.
 */
export function otherOutput(path: string, data: unknown): ConfigError | undefined {
  const d = data as { run?: unknown; base?: { file?: unknown }; head?: { file?: unknown } } | null;
  if (d === null || typeof d !== 'object' || d.run !== undefined || typeof d.base?.file !== 'string' || typeof d.head?.file !== 'string') return undefined;
  return new ConfigError(
    `${path}: this is a compare.json (what answer-eval compare writes), not a report.json; pass the report.json of a run, or the directory a run wrote it to ` +
      `(this comparison was of ${d.base.file} and ${d.head.file})`,
  );
}

/** Refuses a report of another schema major, naming both versions, and another output of answer-eval (a compare.json) for what it is. */
function checkVersion(path: string, data: unknown): void {
  const other = otherOutput(path, data);
  if (other) throw other;
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

const HeadSchema = ReportSchema.omit({ results: true });

/** Refuses to read whole a report too large for one string. */
async function checkWholeSize(path: string): Promise<void> {
  const size = (await stat(path)).size;
  if (size > limits.wholeReportBytes) {
    throw new ConfigError(`${path}: a report of ${Math.round(size / 1024 / 1024)} MiB must keep the layout answer-eval writes (one result per line, results last) to be read`);
  }
}

/** The head of a report.json (everything before its results, which answer-eval writes last), validated, and where the results begin. */
async function locateHead(path: string): Promise<{ head: ReportHead; at: Head } | undefined> {
  const at = await findHead(path);
  if (at === undefined) return undefined;
  const data = parseJson(path, `${at.text}\n}`);
  checkVersion(path, data);
  return { head: validate(path, HeadSchema, data), at };
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
  const indexed = located && (await indexResults(path, located.at));
  if (located && indexed) return { head: located.head, results: new RecordSource<QuestionResult>([path], indexed.offsets, indexed.lengths, indexed.count) };
  await checkWholeSize(path);
  return fromReport(await readReport(path));
}

/** Where each result of a report.json sits, each checked against the schema; undefined when the layout is not one of ours. */
async function indexResults(path: string, head: Head): Promise<{ offsets: Float64Array; lengths: Uint32Array; count: number } | undefined> {
  let offsets = new Float64Array(1024);
  let lengths = new Uint32Array(1024);
  let count = 0;
  const ours = await eachResult(path, head, QuestionResultSchema, (_, from, to) => {
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
 * One pass over the results of a report.json, in the layouts openReport reads: each result is parsed, checked
 * against `schema` (errors name `results[i].field` and its line) and handed to `visit` with where it sits. False
 * when the layout is not one of ours (nothing is then to be trusted of what was visited).
 */
async function eachResult<S extends z.ZodType>(path: string, head: Head, schema: S, visit: (result: z.output<S>, from: number, to: number) => void): Promise<boolean> {
  return eachResultText(path, head, ({ text, from, to, index, line }) => {
    const data = parseJson(`${path}:${line}`, text, `results[${index}] `);
    const parsed = schema.safeParse(data);
    if (!parsed.success) throw new ConfigError(`${path}: ${issueAt(`results[${index}]`, parsed.error.issues)} (not a valid answer-eval report)`);
    visit(parsed.data, from, to);
  });
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
    const ours = await eachResult(path, located.at, schema, (r) => {
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
