import { describe, expect, it } from 'vitest';
import { retryAfterMs, retryWaitMs } from '../../src/client/backoff.js';
import { Throttle } from '../../src/client/throttle.js';
import { formatProgress, progressBar, ProgressTracker } from '../../src/run/progress.js';

describe('Throttle (fake clock)', () => {
  it('lets requests through at once with no --rps and no 429', () => {
    const t = new Throttle({ now: () => 0 });
    expect(t.acquire()).toBeUndefined();
    expect(t.rps).toBeNull();
  });

  it('a 429 pauses everyone, halves the rate sent, then recovers additively to unlimited', () => {
    let now = 0;
    const pauses: [number, number][] = [];
    const t = new Throttle({ now: () => now, onPause: (ms, rps) => pauses.push([ms, rps]) });
    for (let i = 0; i < 40; i++) t.acquire(); // 40 requests in the first second
    now = 500;
    t.throttled(2000);
    expect(pauses).toEqual([[2000, 20]]);
    expect(t.pausedForMs).toBe(2000);
    now = 600;
    t.throttled(1000); // already paused: extends nothing, no second decrease
    expect(t.rps).toBe(20);
    expect(pauses[1]).toEqual([1900, 20]);
    now = 2500 + 1000; // one second after the pause
    void t.acquire();
    expect(t.rps).toBe(24); // + a tenth of the 40/s sent before the 429
    now = 2500 + 5000;
    void t.acquire();
    expect(t.rps).toBeNull(); // back to where it was: the limit is lifted
  });

  it('with --rps the target is --rps', () => {
    let now = 0;
    const t = new Throttle({ rps: 10, now: () => now });
    expect(t.rps).toBe(10);
    t.throttled(100);
    expect(t.rps).toBe(0.5); // half the rate actually sent (nothing yet, so the 1/s floor)
    now = 100 + 3000;
    void t.acquire();
    expect(t.rps).toBe(3.5);
  });
});

describe('progress', () => {
  it('counts events and formats one line with rate, ETA, errors and the current wait', () => {
    const p = new ProgressTracker(0);
    p.apply({ type: 'start', total: 100, done: 20, toAsk: 80 }, 0);
    for (let i = 0; i < 10; i++) p.apply({ type: 'result', id: `q${i}`, error: i < 2 }, 1000);
    p.apply({ type: 'pause', waitMs: 8000, rps: 2.5 }, 2000);
    const snap = p.snapshot(2000);
    expect(snap).toMatchObject({ done: 30, total: 100, errors: 2, ratePerSec: 5, etaMs: 14_000, waitMs: 8000 });
    expect(formatProgress(snap)).toBe('30/100 (30.0%)  5.0/s  ETA 14s  2 errors  waiting 8s (429: paused, then 2.5/s)');
    expect(formatProgress(p.snapshot(20_000))).toBe('30/100 (30.0%)  0.5/s  ETA 2m20s  2 errors');
    expect(progressBar(30, 100, 10)).toBe('[###-------]');
  });
});

describe('retry waits', () => {
  const backoff = { baseMs: 250, capMs: 10_000 };
  it('full jitter below min(cap, base * 2^retry); Retry-After when longer, capped at 60 s', () => {
    expect(retryWaitMs(0, backoff, undefined, () => 0.5)).toBe(125);
    expect(retryWaitMs(3, backoff, undefined, () => 0.999)).toBe(1998);
    expect(retryWaitMs(10, backoff, undefined, () => 0.5)).toBe(5000);
    expect(retryWaitMs(0, backoff, retryAfterMs('2'), () => 0.5)).toBe(2000);
    expect(retryWaitMs(0, backoff, retryAfterMs('3600'), () => 0.5)).toBe(60_000);
    expect(retryAfterMs('Thu, 01 Jan 2026 00:00:30 GMT', Date.parse('2026-01-01T00:00:00Z'))).toBe(30_000);
  });
});
