import { write } from 'node:fs';
import { open, rename, rm, truncate, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { AnswerEvalError } from '../errors.js';
import type { EngineIdentity, QuestionResult } from '../model/report.js';
import type { ResultSource } from '../model/source.js';
import { mkdirs, reasonOf } from '../util/out-dir.js';
import { RecordSource } from '../util/records.js';
import { createTemp } from '../util/temp-file.js';

export const JOURNAL_FILE = 'journal.jsonl';
/** 2: every line carries its run's tag (`run`), so lines of another run's journal are told apart. */
export const JOURNAL_VERSION = 2;

/**
 * The first line of a journal: what a resumed run must share with the run that wrote it.
 * Never the agent code.
 */
export interface JournalHeader {
  journal: typeof JOURNAL_VERSION;
  /** The run's tag (16 hex digits, random), on every line it writes; a resumed run goes on with it. */
  run: string;
  tool: { name: string; version: string };
  /** `encoding` only when one was declared. */
  dataset: { path: string; sha256: string; questions: number; encoding?: string };
  /** What decides each question's answer; a resumed run must ask the same way. */
  request: {
    /** The service, without credentials or query; null for the embedded engine (its URL is an ephemeral port: see `engine`). */
    baseUrl: string | null;
    /** Set when the --base-url held credentials or a query string: secrets, left out of `baseUrl`, so a resumed run is given --base-url again. */
    baseUrlRedacted?: true;
    /** The embedded engine's knowledge base and options; null (or absent, in older journals) for a remote service. */
    engine?: EngineIdentity | null;
    agent: string;
    language: string;
    guest: boolean;
    username: string | null;
    forceSubscription: boolean;
    /** --[no-]ask-for-metadata, when given: sent as question.ask_for_metadata (absent: not sent). */
    askForMetadata?: boolean;
    /** --[no-]using-repeating-answers, when given: sent as question.using_repeating_answers (absent: not sent). */
    usingRepeatingAnswers?: boolean;
    output: string;
    /** These decide whether a question ends in error, so a resumed run keeps them too. */
    timeoutMs: number;
    retries: number;
    maxResponseBytes: number;
    /** `i/n`, or null for the whole dataset. */
    shard: string | null;
    /** The alias file, or null. */
    aliases: string | null;
    /** --repeat N, when N > 1: how many times each question is asked. */
    repeat?: number;
    /** --max-turn-delay, when the dataset holds conversations: how long a turn's `delay` may hold the next turn. */
    maxTurnDelayMs?: number;
  };
  startedAt: string;
}

/** Where a question's result line sits in the journal, and whether it ended in error. */
export interface JournalEntry {
  offset: number;
  length: number;
  error: boolean;
  /** The question's line in the dataset: its place in the report. */
  line: number;
  /** Its own line in the journal, for messages. */
  journalLine: number;
  /** Set once a question of the run looked it up (see PriorResults). */
  seen?: boolean;
}

export const journalPath = (dir: string): string => join(dir, JOURNAL_FILE);

/**
 * A journal line: a question's result, and for the further askings of a --repeat run, which one it is
 * (`repeat`: 1 for the second asking, 2 for the third...). The first asking has no `repeat`.
 */
export type JournalLine = QuestionResult & { repeat?: number };

/** Where the k-th further asking of a question is kept in `JournalContents.repeats`. */
export const repeatKey = (id: string, k: number): string => `${k}\u0000${id}`;

/**
 * A result's journal line: its JSON with, for a further asking (`k` > 0), `repeat`, and the run's tag last (read
 * back, the tag is dropped: see JournalSource).
 */
export const journalLine = (run: string, result: QuestionResult, k: number): string => `${JSON.stringify(result).slice(0, -1)}${journalTail(run, k)}`;

/** What a journal line has in place of its result's closing brace (see journalLine). */
export const journalTail = (run: string, k: number): string => `${k > 0 ? `,"repeat":${k}` : ''},"run":"${run}"}`;

/** What differs between the journal's run and this one, one phrase each naming both values; empty when none. */
export function headerDifferences(journal: JournalHeader, now: JournalHeader): string[] {
  const out: string[] = [];
  if (journal.journal !== now.journal) out.push(`journal format differs (journal ${journal.journal}, now ${now.journal})`);
  if (journal.tool.version !== now.tool.version) {
    out.push(`${now.tool.name} version differs (journal ${journal.tool.version}, now ${now.tool.version}): finish it with the version that started it`);
  }
  if (journal.dataset.sha256 !== now.dataset.sha256) {
    out.push(`the dataset differs (journal ${journal.dataset.path} sha256 ${journal.dataset.sha256}, now ${now.dataset.path} sha256 ${now.dataset.sha256})`);
  }
  if (journal.dataset.encoding !== now.dataset.encoding) {
    out.push(`--encoding differs (journal ${journal.dataset.encoding ?? 'none: UTF-8'}, now ${now.dataset.encoding ?? 'none: UTF-8'})`);
  }
  const was = journal.request.engine ?? null;
  const is = now.request.engine ?? null;
  if (was !== null && is !== null) {
    if (was.kb.sha256 !== is.kb.sha256) out.push(`the knowledge base differs (journal ${was.kb.path} sha256 ${was.kb.sha256}, now ${is.kb.path} sha256 ${is.kb.sha256})`);
    if (was.floorThreshold !== is.floorThreshold) out.push(`--floor differs (journal ${was.floorThreshold}, now ${is.floorThreshold})`);
    if (was.suggestionThreshold !== is.suggestionThreshold) out.push(`--suggestion-threshold differs (journal ${was.suggestionThreshold}, now ${is.suggestionThreshold})`);
  } else if (was !== is) {
    const side = (e: EngineIdentity | null, url: string | null) => (e === null ? `the service ${JSON.stringify(url)}` : `the embedded engine on ${e.kb.path}`);
    out.push(`the target differs (journal ${side(was, journal.request.baseUrl)}, now ${side(is, now.request.baseUrl)})`);
  }
  const flags: Record<Exclude<keyof JournalHeader['request'], 'engine' | 'baseUrlRedacted'>, string> = {
    baseUrl: '--base-url',
    agent: '--agent',
    language: '--language',
    guest: '--guest',
    username: '--username',
    forceSubscription: '--force-subscription',
    askForMetadata: '--ask-for-metadata',
    usingRepeatingAnswers: '--using-repeating-answers',
    output: '--output',
    timeoutMs: '--timeout',
    retries: '--retries',
    maxResponseBytes: '--max-response-bytes',
    shard: '--shard',
    aliases: '--aliases',
    repeat: '--repeat',
    maxTurnDelayMs: '--max-turn-delay',
  };
  for (const key of Object.keys(flags) as (keyof typeof flags)[]) {
    if (key === 'baseUrl' && (was !== null || is !== null)) continue; // said above
    const a = journal.request[key];
    const b = now.request[key];
    const said = (v: unknown): string => JSON.stringify(v) ?? 'not given';
    if (a !== b) out.push(`${flags[key]} differs (journal ${said(a)}, now ${said(b)})`);
  }
  return out;
}

/** A batch is written once it is this full (or JOURNAL_FLUSH_MS after its first line). */
const BATCH_BYTES = 256 * 1024;
const JOURNAL_FLUSH_MS = 50;
/** Written batch buffers kept for the next batches. */
const SPARE_BATCHES = 4;
/** The most UTF-8 bytes one UTF-16 code unit becomes (a lone surrogate is written as U+FFFD, 3 bytes). */
const MAX_BYTES_PER_UNIT = 3;

/**
 * Appends result lines to the journal. Each line is encoded straight into the batch buffer (its length in bytes comes
 * from the encoding: no second pass, no joined string); a batch is written at BATCH_BYTES or JOURNAL_FLUSH_MS after
 * its first line, one write in flight at a time, so a busy run makes a few large writes and a crash can tear only the
 * last line. `append` returns where the line will sit, which is how the run finds every result again without keeping
 * it in memory. Write errors are kept, told to `onError` once, and reported by close().
 */
export class JournalWriter {
  #error: Error | undefined;
  #batch: Buffer = Buffer.allocUnsafe(BATCH_BYTES);
  #used = 0;
  #timer: NodeJS.Timeout | undefined;
  #size: number;
  /** Batches handed over, written in order by #drain: each its buffer and the bytes of it still to write. */
  readonly #queue: { buffer: Buffer; from: number; to: number }[] = [];
  /** Batch buffers written already, used again (a buffer a batch would leave to the garbage collector otherwise). */
  readonly #spare: Buffer[] = [];
  #writing = false;
  #drained: (() => void) | undefined;

  private constructor(
    readonly path: string,
    private readonly handle: FileHandle,
    size: number,
    private readonly onError: (error: Error) => void,
  ) {
    this.#size = size;
  }

  /**
   * Starts a new journal in `dir` (replacing any older one) with its header line: made exclusively under a temporary
   * name, then renamed into place (util/temp-file.ts), so a link planted under either name is never written through.
   */
  static async create(dir: string, header: JournalHeader, onError: (error: Error) => void): Promise<JournalWriter> {
    await mkdirs(dir);
    const path = journalPath(dir);
    const { tmp, handle } = await createTemp(path);
    try {
      await rename(tmp, path);
    } catch (error) {
      await handle.close();
      await rm(tmp, { force: true });
      throw error;
    }
    const writer = new JournalWriter(path, handle, 0, onError);
    writer.append(JSON.stringify(header));
    writer.flush();
    return writer;
  }

  /** Continues a journal after its last whole line (cutting off a torn one). */
  static async resume(dir: string, validBytes: number, onError: (error: Error) => void): Promise<JournalWriter> {
    const path = journalPath(dir);
    await truncate(path, validBytes);
    return new JournalWriter(path, await open(path, 'a'), validBytes, onError);
  }

  /**
   * Queues one line (the result's JSON, serialized by the caller), with its last character replaced by `tail` when
   * given (journalTail: written into the batch as it is, the line never made as a string); returns its offset and
   * length in bytes.
   */
  append(line: string, tail?: string): { offset: number; length: number } {
    const worst = (line.length + (tail?.length ?? 0)) * MAX_BYTES_PER_UNIT + 1;
    if (this.#used + worst > this.#batch.length) {
      this.flush();
      if (worst > this.#batch.length) this.#batch = Buffer.allocUnsafe(worst); // a line longer than a batch: its own
    }
    let length = this.#batch.write(line, this.#used);
    if (tail !== undefined) length += this.#batch.write(tail, this.#used + length - 1) - 1; // the last character is `}`: one byte
    this.#batch[this.#used + length] = 0x0a;
    const at = { offset: this.#size, length };
    this.#size += length + 1;
    if (this.#error !== undefined) return at;
    this.#used += length + 1;
    this.#timer ??= setTimeout(this.flush, JOURNAL_FLUSH_MS).unref();
    return at;
  }

  /** Hands the gathered lines to be written. */
  readonly flush = (): void => {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#used === 0) return;
    this.#queue.push({ buffer: this.#batch, from: 0, to: this.#used });
    this.#batch = this.#spare.pop() ?? Buffer.allocUnsafe(BATCH_BYTES);
    this.#used = 0;
    if (!this.#writing) this.#drain();
  };

  /** Writes the queued batches in order, each whole (a short write goes on where it stopped). */
  #drain(): void {
    const next = this.#queue[0];
    if (next === undefined || this.#error !== undefined) {
      this.#writing = false;
      this.#queue.length = 0;
      this.#drained?.();
      return;
    }
    this.#writing = true;
    write(this.handle.fd, next.buffer, next.from, next.to - next.from, null, (error, written) => {
      if (error) return this.#fail(error);
      next.from += written;
      if (next.from === next.to) {
        this.#queue.shift();
        if (next.buffer.length === BATCH_BYTES && this.#spare.length < SPARE_BATCHES) this.#spare.push(next.buffer);
      }
      this.#drain();
    });
  }

  #fail(error: Error): void {
    this.#error ??= new AnswerEvalError(`cannot write the journal ${this.path}: ${reasonOf(error)}`, 'JOURNAL', 3, { cause: error });
    this.onError(this.#error);
    this.#drain();
  }

  /** Flushes and closes; rejects when any write failed. */
  async close(): Promise<void> {
    this.flush();
    if (this.#writing) await new Promise<void>((resolve) => (this.#drained = resolve));
    await this.handle.close().catch((error: Error) => (this.#error ??= new AnswerEvalError(`cannot write the journal ${this.path}: ${reasonOf(error)}`, 'JOURNAL', 3, { cause: error })));
    if (this.#error) throw this.#error;
  }
}

/**
 * Results read back from journals in a given order, one at a time: slot i is the line of `lengths[i]` bytes
 * at `offsets[i]` (NaN: none) of `paths[files[i]]` (see RecordSource), without the run's tag.
 */
export class JournalSource extends RecordSource<QuestionResult> implements ResultSource {
  override *[Symbol.iterator](): Iterator<QuestionResult> {
    for (const result of new RecordSource<QuestionResult & { run?: string }>(this.paths, this.offsets, this.lengths, this.count, this.files)) {
      delete result.run;
      yield result;
    }
  }
}
