import { open, stat, type FileHandle } from 'node:fs/promises';
import { z } from 'zod';
import { SHARD_TEXT } from '../dataset/shard.js';
import { ConfigError, InputError } from '../errors.js';
import { EngineIdentitySchema, QuestionResultSchema } from '../model/report.js';
import { JsonTextError, longLineMessage, MAX_RESPONSE_BYTES, parseJsonText, printable, splitLines, type Line, type LongLine } from '../util/json-lines.js';
import { JOURNAL_FILE, JOURNAL_VERSION, journalPath, repeatKey, type JournalEntry, type JournalHeader } from './journal.js';
import { reasonOf } from '../util/out-dir.js';

/**
 * Reading a journal back for --resume, trusting nothing in it. The header (line 1) must be a journal header of
 * this version: anything else stops the resume (exit 2, naming the line and the field), since every later line is
 * judged by it. A later line that is not a whole, valid result of this run (not JSON, cut short, NUL bytes, too
 * long or too deep, a wrong field, a run tag other than the header's: a line of another run's journal joined to
 * this one) is dropped and said: its question has no result, so it is asked again, and nothing is lost.
 */

const whole = z.number().int().nonnegative();

export const JournalHeaderSchema = z.strictObject({
  journal: z.literal(JOURNAL_VERSION),
  run: z.string().regex(/^[0-9a-f]{16}$/, 'expected 16 hex digits'),
  tool: z.object({ name: z.string(), version: z.string() }),
  dataset: z.object({ path: z.string().min(1), sha256: z.string(), questions: whole, encoding: z.string().optional() }),
  request: z.object({
    baseUrl: z.string().nullable(),
    baseUrlRedacted: z.literal(true).optional(),
    engine: EngineIdentitySchema.nullable().optional(),
    agent: z.string().min(1),
    language: z.string(),
    guest: z.boolean(),
    username: z.string().nullable(),
    forceSubscription: z.boolean(),
    askForMetadata: z.boolean().optional(),
    usingRepeatingAnswers: z.boolean().optional(),
    output: z.string(),
    timeoutMs: z.number().int().positive(),
    retries: whole,
    maxResponseBytes: z.number().int().positive().max(MAX_RESPONSE_BYTES),
    shard: z.string().regex(SHARD_TEXT, 'expected i/n').nullable(),
    aliases: z.string().nullable(),
    repeat: z.number().int().min(2).optional(),
    maxTurnDelayMs: whole.optional(),
  }),
  startedAt: z.string(),
}) satisfies z.ZodType<JournalHeader>;

/** A result line: a question's result, which asking it is (--repeat), and the run that wrote it. */
const JournalLineSchema = QuestionResultSchema.extend({ repeat: z.number().int().positive().optional(), run: z.string() }).strict();

/** The first lines dropped are listed; the rest only counted. */
const LISTED = 20;

/** Lines dropped for one reason: `line`, or `line` to `to` when consecutive lines were dropped for the same one. */
export interface DroppedLine {
  line: number;
  to?: number;
  why: string;
}

export interface JournalContents {
  header: JournalHeader;
  /** The last line of each question id (a rerun appends a newer line for the same id). */
  results: Map<string, JournalEntry>;
  /** The last line of each further asking of a question (--repeat), by `repeatKey(id, k)`. */
  repeats: Map<string, JournalEntry>;
  /** Bytes of whole lines; anything after them is a torn line from a crash, and is cut off. */
  validBytes: number;
  /** True when a torn last line was dropped. */
  tornLine: boolean;
  /** The first lines dropped as damaged or foreign, with why. */
  dropped: DroppedLine[];
  /** How many lines were dropped in all. */
  droppedCount: number;
}

const noJournal = (dir: string, path: string, error: NodeJS.ErrnoException): ConfigError => {
  const why = error.code === 'ENOENT' ? `no ${JOURNAL_FILE} in ${dir}` : `cannot read ${path}: ${reasonOf(error)}`;
  return new ConfigError(`--resume ${dir}: ${why} (expected the --out directory of an earlier run)`, { cause: error });
};

/** Opens the journal of `dir`: a regular file (a directory, a FIFO or a device in its place is refused, never waited on). */
async function openJournal(dir: string, path: string): Promise<FileHandle> {
  const info = await stat(path).catch((error: NodeJS.ErrnoException) => {
    throw noJournal(dir, path, error);
  });
  if (!info.isFile()) throw new ConfigError(`--resume ${dir}: ${path} is not a regular file (expected the journal an earlier run wrote)`);
  return open(path).catch((error: NodeJS.ErrnoException) => {
    throw noJournal(dir, path, error);
  });
}

const damaged = (path: string, line: number, message: string, options?: ErrorOptions): InputError =>
  new InputError([{ file: path, line, message: `${message}; the journal is damaged, start the run afresh without --resume` }], options);

/** The header from line 1, or why it is not one. */
function parseHeader(path: string, line: Line | LongLine | undefined): JournalHeader {
  if (line === undefined) throw damaged(path, 1, 'has no header line (the run died before it wrote anything)');
  if ('tooLong' in line) throw damaged(path, 1, `${longLineMessage(line)}: not a journal header`);
  if (line.last) throw damaged(path, 1, 'the header line is cut short (the run died while writing it)');
  let value: unknown;
  try {
    value = parseJsonText(line.bytes.toString('utf8'));
  } catch (error) {
    throw damaged(path, 1, `is not a journal header (${(error as JsonTextError).message})`, { cause: error });
  }
  const version = (value as { journal?: unknown } | null)?.journal;
  if (typeof version === 'number' && version !== JOURNAL_VERSION) {
    throw new ConfigError(`${path}:1: a journal of format ${version}, and this answer-eval reads format ${JOURNAL_VERSION}: finish the run with the answer-eval that started it, or start it afresh`);
  }
  if (typeof value === 'object' && value !== null && 'id' in value && 'outcome' in value) {
    throw damaged(path, 1, 'is a question result where the journal header belongs (the header line was lost or moved)');
  }
  const parsed = JournalHeaderSchema.safeParse(value);
  if (!parsed.success) throw damaged(path, 1, `is not a journal header (expected {"journal":${JOURNAL_VERSION},"run":...}: ${issueText(parsed.error.issues)})`);
  return parsed.data;
}

const issueText = (issues: readonly z.core.$ZodIssue[]): string => {
  const issue = issues[0]!;
  const at = issue.path.map((k) => (typeof k === 'number' ? `[${k}]` : `.${String(k)}`)).join('').replace(/^\./, '');
  return printable(`${at || '(top level)'}: ${issue.message}`);
};

/** Why a result line cannot be taken, or its result. */
function parseResult(line: Line, run: string): { ok: true; value: z.output<typeof JournalLineSchema> } | { ok: false; why: string } {
  let value: unknown;
  try {
    value = parseJsonText(line.bytes.toString('utf8'));
  } catch (error) {
    const e = error as JsonTextError;
    return { ok: false, why: e.deep ? e.message : `not JSON (${e.message}; cut short or damaged)` };
  }
  if (typeof value === 'object' && value !== null && 'journal' in value) return { ok: false, why: `a second journal header (another run's journal was joined to this one)` };
  const parsed = JournalLineSchema.safeParse(value);
  if (!parsed.success) return { ok: false, why: `not a question result of answer-eval (${issueText(parsed.error.issues)})` };
  if (parsed.data.run !== run) return { ok: false, why: `written by another run (run ${printable(parsed.data.run, 40)}; this journal's header is of run ${run}): joined from another journal, or the header was replaced` };
  return { ok: true, value: parsed.data };
}

/**
 * Reads a journal line by line, in bounded memory whatever it holds: a torn last line (no newline: the process
 * died mid-write) is dropped and cut off by the resumed run; a damaged or foreign line elsewhere is dropped and
 * listed in `dropped`; a bad header is an error.
 */
export async function readJournal(dir: string): Promise<JournalContents> {
  const path = journalPath(dir);
  const handle = await openJournal(dir, path);
  const results = new Map<string, JournalEntry>();
  const repeats = new Map<string, JournalEntry>();
  const dropped: DroppedLine[] = [];
  let droppedCount = 0;
  let header: JournalHeader | undefined;
  let validBytes = 0;
  let tornLine = false;
  const drop = (line: number, why: string): void => {
    droppedCount++;
    const last = dropped.at(-1);
    if (last !== undefined && last.why === why && (last.to ?? last.line) === line - 1) last.to = line;
    else if (dropped.length < LISTED) dropped.push({ line, why });
  };
  try {
    for await (const line of splitLines(handle.createReadStream({ autoClose: false, highWaterMark: 1024 * 1024 }) as AsyncIterable<Buffer>, { skipLong: true })) {
      if (line.number === 1) {
        header = parseHeader(path, line);
        validBytes = (line as Line).bytes.length + 1;
        continue;
      }
      if (line.last) {
        tornLine = true; // cut off by the resumed run's writer
        break;
      }
      if ('tooLong' in line) drop(line.number, longLineMessage(line));
      else if (line.bytes.length > 0) {
        const parsed = parseResult(line, header!.run);
        if (!parsed.ok) drop(line.number, parsed.why);
        else {
          const { value } = parsed;
          const entry: JournalEntry = { offset: line.at, length: line.bytes.length, error: value.outcome === 'error', line: value.line, journalLine: line.number };
          if (value.repeat !== undefined) repeats.set(repeatKey(value.id, value.repeat), entry);
          else results.set(value.id, entry);
        }
      }
      // a whole line, dropped or not, stays: the resumed run appends after it
      validBytes = 'tooLong' in line ? line.end! : line.at + line.bytes.length + 1;
    }
  } finally {
    await handle.close();
  }
  if (header === undefined) throw damaged(path, 1, 'has no header line (the run died before it wrote anything)');
  return { header, results, repeats, validBytes, tornLine, dropped, droppedCount };
}

/** Reads only the header line, checked as readJournal checks it, e.g. to fill in the options of a resumed run. */
export async function readJournalHeader(dir: string): Promise<JournalHeader> {
  const path = journalPath(dir);
  const handle = await openJournal(dir, path);
  try {
    const lines = splitLines(handle.createReadStream({ autoClose: false, highWaterMark: 64 * 1024 }) as AsyncIterable<Buffer>, { maxBytes: 1024 * 1024 });
    const first = await lines.next();
    await lines.return(undefined);
    return parseHeader(path, first.done ? undefined : first.value);
  } finally {
    await handle.close();
  }
}
