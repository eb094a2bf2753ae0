import type { BackoffOptions } from '../client/backoff.js';
import type { Output } from '../client/request.js';
import type { Shard } from '../dataset/shard.js';

/** Everything a run needs; the CLI fills it from flags, the programmatic API from code. */
export interface RunOptions {
  /** A CSV or JSONL question set. */
  dataset: string;
  /** An alias file (`old,new` sequence numbers, see src/dataset/aliases.ts) applied to expected_sequence. */
  aliases?: string;
  /** The service's base URL; POSTs go to {baseUrl}/api/v1/answer. */
  baseUrl: string;
  /** Agent id (`wikiagent`). */
  agent: string;
  /** The agent's secret code (`wikiclone_code` header). Never written anywhere. */
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
  /** Only json is scored. @default 'json' */
  output?: Output;
  /** @default 1048576 */
  maxResponseBytes?: number;
  /** @default { baseMs: 250, capMs: 10000 } */
  backoff?: BackoffOptions;
  /** Ask only the questions of this shard (by a hash of their id). */
  shard?: Shard;
  /** Set when the run targets the embedded engine, for the report. */
  embeddedEngine?: boolean;
  /** Stops the run: nothing new is sent, the report is marked partial. */
  signal?: AbortSignal;
  /** Told as each question finishes. */
  onProgress?: (done: number, total: number) => void;
}

export const RUN_DEFAULTS = {
  concurrency: 8,
  timeoutMs: 30_000,
  retries: 2,
  language: 'en',
  guest: true,
  forceSubscription: false,
  output: 'json',
  maxResponseBytes: 1024 * 1024,
} as const;
