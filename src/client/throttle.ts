import { sleep } from './sleep.js';

/** The slowest a throttled run goes, in requests per second. */
export const MIN_RPS = 0.5;
const STEP_MS = 1000;

export interface ThrottleOptions {
  /** Requests per second for the whole run (--rps); undefined: no limit until the service says 429. */
  rps?: number;
  /** Told when a 429 pauses the run: how long, and the rate it resumes at. */
  onPause?: (waitMs: number, rps: number) => void;
  /** A millisecond clock. @default performance.now */
  now?: () => number;
}

/**
 * The gate every attempt of every worker passes before it is sent: a token bucket of --rps (as a
 * schedule of send times, so no queue is kept), and a shared pause after a 429.
 *
 * AIMD: a 429 pauses every worker until its Retry-After (or backoff) has elapsed and halves the rate
 * (from the rate actually sent over the last second when no --rps is set); then every second without
 * a new 429 adds a tenth of the target rate back, until --rps (or, without one, the rate sent before
 * the 429) is reached and the limit is lifted. One 429 storm makes one decrease: 429s that arrive
 * while the run is already paused only extend the pause.
 */
export class Throttle {
  readonly #limit: number;
  readonly #now: () => number;
  readonly #onPause: ((waitMs: number, rps: number) => void) | undefined;
  #rate: number;
  #target: number;
  #next = 0;
  #pausedUntil = 0;
  #lastIncrease = 0;
  #windowStart = 0;
  #windowCount = 0;
  #lastWindowCount = 0;

  constructor(options: ThrottleOptions = {}) {
    this.#limit = options.rps ?? Infinity;
    this.#rate = this.#limit;
    this.#target = this.#limit;
    this.#now = options.now ?? (() => performance.now());
    this.#onPause = options.onPause;
  }

  /** The rate in force now; null when unlimited. */
  get rps(): number | null {
    return this.#rate === Infinity ? null : this.#rate;
  }

  /** Milliseconds the shared pause still lasts. */
  get pausedForMs(): number {
    return Math.max(0, this.#pausedUntil - this.#now());
  }

  /** Resolves when the next request may go; undefined (no promise) when it may go at once. */
  acquire(signal?: AbortSignal): Promise<void> | undefined {
    const now = this.#now();
    this.#count(now);
    if (this.#rate === Infinity && now >= this.#pausedUntil) return undefined;
    return this.#wait(signal);
  }

  /** The service said 429 (or 503 with Retry-After): pause everyone for `waitMs` and slow down. */
  throttled(waitMs: number): void {
    const now = this.#now();
    const alreadyPaused = now < this.#pausedUntil;
    this.#pausedUntil = Math.max(this.#pausedUntil, now + waitMs);
    if (!alreadyPaused) {
      const sent = Math.max(this.#lastWindowCount, this.#windowCount, MIN_RPS * 2);
      const current = Math.min(this.#rate, sent);
      this.#target = this.#limit === Infinity ? current : this.#limit;
      this.#rate = Math.max(MIN_RPS, current / 2);
      this.#next = this.#pausedUntil;
    }
    this.#lastIncrease = this.#pausedUntil;
    this.#onPause?.(Math.round(this.#pausedUntil - now), this.#rate);
  }

  async #wait(signal: AbortSignal | undefined): Promise<void> {
    for (;;) {
      const now = this.#now();
      this.#recover(now);
      let at = Math.max(now, this.#pausedUntil);
      if (this.#rate !== Infinity) {
        at = Math.max(at, this.#next);
        this.#next = at + 1000 / this.#rate;
      }
      if (at <= now) return;
      await sleep(at - now, signal);
      // a 429 that came while this request slept pauses it too
      if (this.#now() >= this.#pausedUntil) return;
    }
  }

  #recover(now: number): void {
    if (this.#rate === this.#limit || now < this.#pausedUntil) return;
    const steps = Math.floor((now - this.#lastIncrease) / STEP_MS);
    if (steps <= 0) return;
    this.#lastIncrease += steps * STEP_MS;
    this.#rate += steps * Math.max(1, this.#target / 10);
    if (this.#rate >= this.#target) this.#rate = this.#limit;
  }

  #count(now: number): void {
    if (now - this.#windowStart >= STEP_MS) {
      this.#lastWindowCount = now - this.#windowStart < 2 * STEP_MS ? this.#windowCount : 0;
      this.#windowStart = now;
      this.#windowCount = 0;
    }
    this.#windowCount++;
  }
}
