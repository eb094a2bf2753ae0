/** What a run tells its observer as it goes; the CLI renders it, a script may log it. */
export type RunEvent =
  /** `done` questions were already in the journal; `toAsk` will be asked now. */
  | { type: 'start'; total: number; done: number; toAsk: number }
  | { type: 'result'; id: string; error: boolean }
  /** A question waits `waitMs` before its next attempt. */
  | { type: 'retry'; id: string; reason: string; waitMs: number }
  /** The service said 429 and the run pauses (--pause-on-429): every worker waits `waitMs`, then the run goes at `rps`. */
  | { type: 'pause'; waitMs: number; rps: number }
  /** The rate limit in force changed (--rps, or climbing back after a 429); null: no limit. */
  | { type: 'rate'; rps: number | null }
  /** Nothing more is sent; requests in flight get the grace period. */
  | { type: 'stopping'; reason: string }
  /** The asking is over and the journal closed, holding every result: scoring and the reports follow. */
  | { type: 'journaled' };

export interface ProgressSnapshot {
  done: number;
  total: number;
  errors: number;
  /** Questions answered per second in this run (journaled ones aside); null before the first. */
  ratePerSec: number | null;
  etaMs: number | null;
  /** How long the longest current backoff or 429 pause still lasts. */
  waitMs: number;
  waitReason: string | null;
  /** The rate limit in force (--rps, or after a 429); null when none. */
  limitRps: number | null;
  stopping: string | null;
}

/** Folds run events into counts; the clock is given, so it is a pure step. */
export class ProgressTracker {
  total = 0;
  done = 0;
  errors = 0;
  #askedNow = 0;
  #startedAt: number;
  #waitUntil = 0;
  #waitReason: string | null = null;
  #limit: number | null = null;
  #stopping: string | null = null;

  constructor(now: number) {
    this.#startedAt = now;
  }

  apply(event: RunEvent, now: number): void {
    switch (event.type) {
      case 'start':
        this.total = event.total;
        this.done = event.done;
        this.#startedAt = now;
        break;
      case 'result':
        this.done++;
        this.#askedNow++;
        if (event.error) this.errors++;
        break;
      case 'retry':
        this.#extendWait(now + event.waitMs, `retry: ${event.reason}`);
        break;
      case 'pause':
        this.#extendWait(now + event.waitMs, '429: paused');
        this.#limit = event.rps;
        break;
      case 'rate':
        this.#limit = event.rps;
        break;
      case 'stopping':
        this.#stopping = event.reason;
        break;
      case 'journaled':
        break;
    }
  }

  snapshot(now: number): ProgressSnapshot {
    const elapsed = (now - this.#startedAt) / 1000;
    const rate = this.#askedNow > 0 && elapsed > 0 ? this.#askedNow / elapsed : null;
    const waitMs = Math.max(0, this.#waitUntil - now);
    return {
      done: this.done,
      total: this.total,
      errors: this.errors,
      ratePerSec: rate,
      etaMs: rate === null ? null : ((this.total - this.done) / rate) * 1000,
      waitMs,
      waitReason: waitMs > 0 ? this.#waitReason : null,
      limitRps: this.#limit,
      stopping: this.#stopping,
    };
  }

  #extendWait(until: number, reason: string): void {
    if (until >= this.#waitUntil) {
      this.#waitUntil = until;
      this.#waitReason = reason;
    }
  }
}

const duration = (ms: number): string => {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
};

/** `1234/50000 (2.5%)  41.3/s  limit 45.0/s  ETA 19m40s  12 errors  waiting 8s (429: paused)` */
export function formatProgress(p: ProgressSnapshot): string {
  const pct = p.total === 0 ? 100 : (p.done / p.total) * 100;
  const parts = [
    `${p.done}/${p.total} (${pct.toFixed(1)}%)`,
    p.ratePerSec === null ? '-/s' : `${p.ratePerSec.toFixed(1)}/s`,
    ...(p.limitRps === null ? [] : [`limit ${p.limitRps.toFixed(1)}/s`]),
    `ETA ${p.etaMs === null ? '-' : duration(p.etaMs)}`,
    `${p.errors} error${p.errors === 1 ? '' : 's'}`,
  ];
  if (p.waitMs > 0) parts.push(`waiting ${duration(p.waitMs)}${p.waitReason ? ` (${p.waitReason})` : ''}`);
  if (p.stopping !== null) parts.push('stopping: waiting for requests in flight');
  return parts.join('  ');
}

/** A bar of `width` cells for the TTY line. */
export function progressBar(done: number, total: number, width = 20): string {
  const filled = total === 0 ? width : Math.min(width, Math.floor((done / total) * width));
  return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}]`;
}
