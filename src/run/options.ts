import type { BackoffOptions } from '../client/backoff.js';
import type { Output } from '../model/request-fields.js';
import type { Shard } from '../dataset/shard.js';
import type { DatasetSource } from '../dataset/source.js';
import type { ThresholdOptions } from '../score/metrics/thresholds.js';
import type { EngineIdentity } from '../model/report.js';
import type { KnowledgeBase } from '../engine/kb.js';
import type { RunEvent } from './progress.js';
import type { InputProblem } from '../errors.js';

/** Everything a run needs; the CLI fills it from flags, the programmatic API from code. */
export interface RunOptions {
  /**
   * A CSV or JSONL question set: a path (a pipe is read once into a temporary copy), or a dataset opened with
   * `openDataset`. Required, unless `resume` takes it from the journal.
   */
  dataset?: string | DatasetSource;
  /** The dataset's encoding when it is not UTF-8 (any label TextDecoder knows: latin1, windows-1252, utf-16le...). @default UTF-8, or UTF-16 by its BOM */
  encoding?: string;
  /** The service's base URL; POSTs go to {baseUrl}/api/v1/answer. Required, unless `resume` takes it from the journal. */
  baseUrl?: string;
  /** Agent id (`wikiagent`). Required, unless `resume` takes it from the journal. */
  agent?: string;
  /**
   * The agent's secret code (`wikiclone_code` header). Never written anywhere: masked, as every secret of `baseUrl`
   * is, wherever the service echoes it (src/client/secrets/).
   */
  agentCode: string;
  /** @default 8 */
  concurrency?: number;
  /** Per attempt, in ms. @default 30000 */
  timeoutMs?: number;
  /** Retries after the first attempt for network errors, timeouts, 429 and 5xx. @default 2 */
  retries?: number;
  /** @default 'en' */
  language?: string;
  username?: string;
  /** @default true */
  guest?: boolean;
  /** @default false */
  forceSubscription?: boolean;
  /** Send `question.ask_for_metadata` (2.2) with this value; unset: not sent. A row's `ask_for_metadata` overrides it. */
  askForMetadata?: boolean;
  /** Send `question.using_repeating_answers` (2.2) with this value; unset: not sent. A row's `using_repeating_answers` overrides it. */
  usingRepeatingAnswers?: boolean;
  /**
   * The response format asked for; a row's `output` overrides it. Every one is scored: xml and html are read into
   * the json reply's fields, text as answer texts (with the knowledge base, their entries too). @default 'json'
   */
  output?: Output;
  /** @default 1048576 */
  maxResponseBytes?: number;
  /** @default { baseMs: 250, capMs: 10000 } */
  backoff?: BackoffOptions;
  /** Ask only the questions of this shard (by a hash of their id). */
  shard?: Shard;
  /** A CSV of old,new sequence numbers applied to expected_sequence. */
  aliases?: string;
  /**
   * A knowledge base (.jsonl or .csv) the run is scored against: its entries' categories and texts, for the
   * category breakdown and the per-entry table (the embedded engine's, or one kept beside a remote service). A path,
   * or one already loaded (`openTarget` loads the embedded engine's once, for the engine and the run).
   */
  knowledgeBase?: string | KnowledgeBase;
  /**
   * Told once, before anything is sent, of the expectations the knowledge base cannot meet (an expected label or
   * sequence number none of its entries has, as `validate --kb` finds them): the first 20 and how many in all. The
   * run goes on (those questions will fail). Only with `knowledgeBase`.
   */
  onKbMismatch?: (first: InputProblem[], count: number) => void;
  /**
   * Told once, before anything is sent, of what the run will do but may not be what was meant: a dataset without ids,
   * a secret too short to be masked, a secret that occurs in the dataset or the knowledge base (src/run/secret-sightings.ts).
   */
  onWarning?: (message: string) => void;
  /** How the recommended floor threshold is chosen. @default F1 of in-scope accuracy and out-of-scope recall */
  thresholds?: ThresholdOptions;
  /** Set when the run targets the embedded engine, for the report. */
  embeddedEngine?: boolean;
  /**
   * The embedded engine's identity (knowledge base and options), when the run targets it: recorded in the journal
   * and the report instead of its ephemeral URL, and compared on resume.
   */
  engine?: EngineIdentity;
  /** Requests per second for the whole run (a token bucket shared by every worker); unset: no limit until a 429. */
  rps?: number;
  /**
   * A 429 (or a 503 with Retry-After) pauses every request of the run for its Retry-After, as a service that asks
   * for silence wants; by default only the retried request waits it, and the run goes on at a lower rate. @default false
   */
  pauseOn429?: boolean;
  /** Stop the run as aborted after this many questions in a row ended in error; 0 never stops. @default 20 */
  maxConsecutiveErrors?: number;
  /** Skip TLS certificate verification. @default false */
  insecure?: boolean;
  /**
   * Append every finished question to `{journalDir}/journal.jsonl` (the CLI passes --out). A run that does not
   * resume refuses a directory that holds a journal already: no run is written over.
   */
  journalDir?: string;
  /** The directory messages name for `--resume` (the CLI's --out, when the journal is staged elsewhere by --overwrite). @default journalDir */
  resumeDir?: string;
  /**
   * Continue the run journaled in `journalDir`: ask only what it has not finished. Every option the journal
   * records (dataset, base URL, agent, how questions are asked and judged) defaults to the journal's.
   */
  resume?: boolean;
  /**
   * Ask every question this many times: the dataset is streamed again for each further asking, so repeats are
   * spread over the run. Each question is scored on its first answer; the others are journaled and summarized in
   * `result.repeats` (is the top-1 the same every time?). @default 1
   */
  repeat?: number;
  /**
   * The longest wait after a turn of a conversation whose answer asks for a `delay` (which the service gives in
   * seconds) before the next turn, in ms. @default 10000
   */
  maxTurnDelayMs?: number;
  /** With `resume`: also ask again the questions that ended in error (a conversation with a turn in error: all of it, as a new user). */
  rerun?: 'errors';
  /** Stops the run: nothing new is sent, requests in flight get `graceMs`, the report is marked partial. */
  signal?: AbortSignal;
  /** How long requests in flight may finish after `signal` (or the circuit breaker) stops the run. @default 2000 */
  graceMs?: number;
  /** Told as each question finishes (journaled ones included in `done`). */
  onProgress?: (done: number, total: number) => void;
  /** Every run event: start, result, retry, 429 pause, stopping. */
  onEvent?: (event: RunEvent) => void;
}

/** A conversation's longest wait after a turn whose answer asks for a delay, unless told otherwise. */
export const DEFAULT_MAX_TURN_DELAY_MS = 10_000;

export const RUN_DEFAULTS = {
  concurrency: 8,
  timeoutMs: 30_000,
  retries: 2,
  language: 'en',
  guest: true,
  forceSubscription: false,
  output: 'json',
  maxResponseBytes: 1024 * 1024,
  maxConsecutiveErrors: 20,
  graceMs: 2_000,
  insecure: false,
  pauseOn429: false,
  repeat: 1,
  maxTurnDelayMs: DEFAULT_MAX_TURN_DELAY_MS,
} as const;
