export interface BackoffOptions {
  /** First retry waits up to this long. @default 250 */
  baseMs: number;
  /** No wait is longer. @default 10000 */
  capMs: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { baseMs: 250, capMs: 10_000 };

/** Exponential backoff with full jitter: a random wait in [0, min(cap, base * 2^retry)). */
export function backoffDelay(retry: number, options: BackoffOptions, random: () => number = Math.random): number {
  return Math.floor(random() * Math.min(options.capMs, options.baseMs * 2 ** retry));
}

/** The longest a Retry-After header makes a run wait: a service asking for more is waited on for this long, then asked again. */
export const RETRY_AFTER_CAP_MS = 60_000;

/** Milliseconds a Retry-After header asks for (seconds or an HTTP date), or undefined. */
export function retryAfterMs(header: string | undefined, now: number = Date.now()): number | undefined {
  if (header === undefined || header.trim() === '') return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** The wait before retry number `retry` (0-based): the backoff, or the Retry-After when longer, capped at RETRY_AFTER_CAP_MS. */
export function retryWaitMs(retry: number, options: BackoffOptions, retryAfter: number | undefined, random: () => number = Math.random): number {
  return Math.max(backoffDelay(retry, options, random), Math.min(retryAfter ?? 0, RETRY_AFTER_CAP_MS));
}
