import { sleep } from './sleep.js';

/** The slowest a throttled run goes, in requests per second. */
export const MIN_RPS = 0.5;
/** After a cut to half, the rate is back where it was this long after the pause; a smaller cut takes less. */
export const RECOVERY_MS = 2000;
/** The smallest and largest cut one 429 storm makes, as a share of the rate. */
export const MIN_CUT = 0.02;
export const MAX_CUT = 0.5;
/** The cut is this many times the share of 429s among the requests of the last second: 5% of 429s or more halve the rate. */
const CUT_PER_SHARE = 10;
/** Sends and 429s are counted over the last second, in buckets of this many ms. */
const BUCKET_MS = 250;
const BUCKETS = 4;
/** The limit is told again when it moved by this share (a recovering limit changes at every send). */
const TELL_CHANGE = 0.05;

export interface ThrottleOptions {
  /** Requests per second for the whole run (--rps); undefined: no limit until the service says 429. */
  rps?: number;
  /**
   * A 429 pauses every request of the run for its Retry-After (--pause-on-429), not only the one retried: for a
   * service that asks for silence. @default false
   */
  pauseAll?: boolean;
  /** Told when a 429 pauses the run (`pauseAll`): how long, and the rate it resumes at. */
  onPause?: (waitMs: number, rps: number) => void;
  /** Told when the limit in force changes (by 5% or more, or lifted: null), e.g. for the progress line. */
  onRate?: (rps: number | null) => void;
  /** A millisecond clock. @default performance.now */
  now?: () => number;
}

/**
 * The gate every attempt of every worker passes before it is sent: a token bucket of --rps (as a schedule of send
 * times, so no queue is kept), and the rate control after a 429 (or a 503 with Retry-After).
 *
 * AIMD, polite but not timid:
 * - A 429 cuts the rate: from the rate in force, or (none in force) the rate sent over the last second. The cut
 *   follows the evidence, ten times the share of 429s among the last second's requests: 2% off for a stray 429 in
 *   a fast run, half when 5% or more of the requests got one (a service that really limits the rate). The 429'd
 *   request itself waits its Retry-After before it is retried (src/client/ask.ts); the other requests go on at the
 *   cut rate. 429s within the Retry-After of a storm's first are the same storm: they cut from the same rate, so
 *   deepen its cut to half at most; a storm after it cuts again from the rate in force then.
 * - The rate climbs back linearly at once to the rate sent before the first 429 (or --rps): from half in
 *   RECOVERY_MS, from 10% off in a fifth of that. Then the limit is lifted (none without --rps). The rate to climb
 *   back to is measured only while no limit is in force, so 429s during a climb never lower it: a stray 429 makes
 *   no lasting cut, while 429s that keep coming keep cutting the rate in force.
 * - With `pauseAll` (--pause-on-429), a 429 also pauses every worker until its Retry-After has elapsed; 429s that
 *   arrive while the run is paused extend the pause, and the climb starts when it ends. At r requests/s, 0.5% of
 *   them a 429 with Retry-After T, the pauses keep about 1 / (1 + 0.005 * r * T) of the throughput (0.45 at 400/s
 *   and T = 1 s), where the default keeps most of it (bench (h)).
 */
export class Throttle {
  readonly #limit: number;
  readonly #pauseAll: boolean;
  readonly #now: () => number;
  readonly #onPause: ((waitMs: number, rps: number) => void) | undefined;
  readonly #onRate: ((rps: number | null) => void) | undefined;
  #rate: number;
  /** Where a recovery climbs to: --rps, or the rate sent before the first 429 of the episode. */
  #ceiling: number;
  /** The rate a storm cuts from (its first 429's), so 429s of the same storm cut from the same rate. */
  #stormBase = 0;
  /** Until when a 429 is of the storm in progress: the first one's Retry-After (the pause, with pauseAll). */
  #stormUntil = 0;
  #next = 0;
  #pausedUntil = 0;
  #recoveredAt = 0;
  #told: number | null = null;
  readonly #sends = new Array<number>(BUCKETS).fill(0);
  readonly #throttled = new Array<number>(BUCKETS).fill(0);
  #bucket = 0;
  #bucketStart = 0;
  #firstCount: number | undefined;
  #liftedAt = -Infinity;

  constructor(options: ThrottleOptions = {}) {
    this.#limit = options.rps ?? Infinity;
    this.#rate = this.#limit;
    this.#ceiling = this.#limit;
    this.#pauseAll = options.pauseAll ?? false;
    this.#now = options.now ?? (() => performance.now());
    this.#onPause = options.onPause;
    this.#onRate = options.onRate;
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
    this.#count(now, this.#sends);
    this.#recover(now);
    if (this.#told !== this.rps) this.#tell();
    if (this.#rate === Infinity && now >= this.#pausedUntil) return undefined;
    return this.#wait(signal);
  }

  /** The service said 429 (or 503 with Retry-After) and asked for `waitMs`: slow down (and, with pauseAll, pause everyone). */
  throttled(waitMs: number): void {
    const now = this.#now();
    this.#count(now, this.#throttled);
    const sameStorm = now < this.#stormUntil;
    if (!sameStorm) {
      this.#recover(now);
      if (this.#rate === Infinity) {
        // no limit in force (with --rps there always is one, and the ceiling is --rps): the rate to come back to
        // is the rate sent; soon after a lift, the last second is mostly the last storm's cut and climb, so
        // the rate that storm came back to still holds
        const sent = Math.max(this.#sentRate(now), MIN_RPS * 2);
        this.#ceiling = now - this.#liftedAt < 1000 ? Math.max(this.#ceiling, sent) : sent;
      }
      this.#stormBase = Math.min(this.#rate, this.#ceiling);
      this.#stormUntil = now + waitMs;
    }
    const share = sum(this.#throttled) / Math.max(1, sum(this.#sends));
    const cut = Math.min(MAX_CUT, Math.max(MIN_CUT, share * CUT_PER_SHARE));
    const cutRate = Math.max(MIN_RPS, this.#stormBase * (1 - cut));
    this.#rate = sameStorm ? Math.min(this.#rate, cutRate) : cutRate;
    if (!this.#pauseAll) {
      this.#recoveredAt = now; // the climb starts at once; the next 429 of the storm cuts it back
      this.#tell();
      return;
    }
    this.#pausedUntil = this.#stormUntil = Math.max(this.#pausedUntil, now + waitMs);
    this.#next = this.#pausedUntil;
    this.#recoveredAt = this.#pausedUntil;
    this.#onPause?.(Math.round(this.#pausedUntil - now), this.#rate);
    this.#told = this.#rate;
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

  /** Climbs back linearly after the pause: half the ceiling per RECOVERY_MS; lifts the limit once there. */
  #recover(now: number): void {
    if (this.#rate === this.#limit || now <= this.#recoveredAt) return;
    this.#rate += ((now - this.#recoveredAt) * this.#ceiling) / (2 * RECOVERY_MS);
    this.#recoveredAt = now;
    if (this.#rate >= this.#ceiling) {
      this.#rate = this.#limit;
      this.#liftedAt = now;
    }
  }

  #tell(): void {
    if (this.#onRate === undefined) return;
    const rps = this.rps;
    const told = this.#told;
    if (rps === told || (rps !== null && told !== null && Math.abs(rps - told) < told * TELL_CHANGE)) return;
    this.#told = rps;
    this.#onRate(rps);
  }

  /** Counts one event of `counts` in the bucket of `now`, emptying the buckets that time has passed. */
  #count(now: number, counts: number[]): void {
    this.#firstCount ??= now;
    this.#advance(now);
    counts[this.#bucket]!++;
  }

  /** Requests sent per second over the last second (or since the first, when sooner). */
  #sentRate(now: number): number {
    const windowMs = Math.min(now - (this.#firstCount ?? now), (BUCKETS - 1) * BUCKET_MS + (now - this.#bucketStart));
    return sum(this.#sends) / (Math.max(100, windowMs) / 1000);
  }

  #advance(now: number): void {
    const passed = Math.floor((now - this.#bucketStart) / BUCKET_MS);
    if (passed <= 0) return;
    for (let i = 1; i <= Math.min(passed, BUCKETS); i++) {
      const b = (this.#bucket + i) % BUCKETS;
      this.#sends[b] = 0;
      this.#throttled[b] = 0;
    }
    this.#bucket = (this.#bucket + passed) % BUCKETS;
    this.#bucketStart += passed * BUCKET_MS;
  }
}

/** Events over the last second (the current bucket and the three before). */
function sum(counts: readonly number[]): number {
  let total = 0;
  for (const c of counts) total += c;
  return total;
}
