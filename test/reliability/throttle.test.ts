import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { retryAfterMs, retryWaitMs } from '../../src/client/backoff.js';
import { sleep } from '../../src/client/sleep.js';
import { Throttle } from '../../src/client/throttle.js';
import { formatProgress, progressBar, ProgressTracker } from '../../src/run/progress.js';

describe('Throttle (fake clock)', () => {
  it('lets requests through at once with no --rps and no 429', () => {
    const t = new Throttle({ now: () => 0 });
    expect(t.acquire()).toBeUndefined();
    expect(t.rps).toBeNull();
  });

  it('--pause-on-429: a 429 pauses everyone and cuts the rate sent; the storm may deepen the cut to half; 2 s after the pause the limit is lifted', () => {
    let now = 0;
    const pauses: [number, number][] = [];
    const t = new Throttle({ pauseAll: true, now: () => now, onPause: (ms, rps) => pauses.push([ms, rps]) });
    for (let i = 0; i < 40; i++) t.acquire(); // 40 requests in half a second: 80/s
    now = 500;
    t.throttled(2000);
    expect(pauses).toEqual([[2000, 60]]); // one 429 in 40 requests: a quarter off
    expect(t.pausedForMs).toBe(2000);
    now = 600;
    t.throttled(1000); // already paused: the same storm, the pause is not extended; 2 in 40 is 5%: half off
    expect(pauses[1]).toEqual([1900, 40]);
    now = 2500 + 1000; // the climb: half of the rate sent (80/s) per 2 s
    void t.acquire();
    expect(t.rps).toBe(60);
    now = 2500 + 2000;
    void t.acquire();
    expect(t.rps).toBeNull(); // back to the rate sent before the 429: the limit is lifted
  });

  it('--pause-on-429: a stray 429 makes no lasting cut: one during the climb cuts the rate in force, and the climb still goes back to where it was', () => {
    let now = 0;
    const t = new Throttle({ pauseAll: true, now: () => now });
    const seen: number[] = [];
    const send = (until: number, every: number) => {
      for (; now < until; now += every) {
        void t.acquire();
        if (t.rps !== null) seen.push(t.rps);
      }
      now = until;
    };
    send(2000, 5); // 200/s
    t.throttled(100);
    expect(t.rps).toBeCloseTo(200 * (1 - 10 / 150), 5); // 1 in 150: ten times that share off
    send(2100, 20); // paused
    send(2250, 6);
    expect(t.rps).toBeCloseTo(200 * (1 - 10 / 150) + 200 * (150 / 4000), 0); // climbing: half the rate sent per 2 s
    const before = t.rps!;
    t.throttled(100); // another stray 429, during the climb
    expect(t.rps).toBeLessThan(before * 0.95);
    seen.length = 0;
    send(4000, 6);
    expect(t.rps).toBeNull(); // lifted within a second of the second pause
    // and it climbed back to the 200/s sent before the first 429, not to the rate of the second
    expect(Math.max(...seen)).toBeGreaterThan(195);
  });

  it('--pause-on-429: 429s that keep coming keep cutting: the rate in force halves per storm when 5% or more of requests get one', () => {
    let now = 0;
    const t = new Throttle({ pauseAll: true, now: () => now });
    for (; now < 1000; now += 5) void t.acquire(); // 200/s
    for (let i = 0; i < 20; i++) t.throttled(200); // a storm: 20 of 200
    expect(t.rps).toBeCloseTo(100, 0);
    for (now = 1200; now < 1400; now += 10) void t.acquire();
    for (let i = 0; i < 10; i++) t.throttled(200);
    expect(t.rps).toBeCloseTo((100 + 200 * (200 / 4000)) / 2, 0);
  });

  it('--pause-on-429 with --rps: the limit is --rps: a 429 cuts it, the climb goes back to it', () => {
    let now = 0;
    const t = new Throttle({ rps: 10, pauseAll: true, now: () => now });
    expect(t.rps).toBe(10);
    t.throttled(100);
    expect(t.rps).toBe(5); // nothing sent yet: one 429 for no request is the deepest cut, half
    now = 100 + 1000;
    void t.acquire();
    expect(t.rps).toBe(7.5);
    now = 100 + 2000;
    void t.acquire();
    expect(t.rps).toBe(10);
  });

  it('tells the limit in force when it moves by 5% or more, and when it is lifted', () => {
    let now = 0;
    const told: (number | null)[] = [];
    const pauses: number[] = [];
    const t = new Throttle({ pauseAll: true, now: () => now, onRate: (rps) => told.push(rps), onPause: (_ms, rps) => pauses.push(rps) });
    for (; now < 1000; now += 10) void t.acquire(); // 100/s, no limit: nothing to tell
    expect(told).toEqual([]);
    t.throttled(0);
    expect(pauses).toHaveLength(1); // the pause event says the new limit
    for (; now < 2000; now += 10) void t.acquire();
    expect(told.slice(0, -1).every((r) => r !== null && r > pauses[0]! && r < 100)).toBe(true);
    expect(told.at(-1)).toBeNull();
    const fixed: (number | null)[] = [];
    const limited = new Throttle({ rps: 20, now: () => 0, onRate: (rps) => fixed.push(rps) });
    void limited.acquire();
    void limited.acquire();
    expect(fixed).toEqual([20]);
  });
});

describe('Throttle, by default (fake clock): a 429 slows the run, it does not pause it', () => {
  it('cuts the rate sent without pausing anyone; the climb starts at once and lifts the limit once back', async () => {
    let now = 0;
    const told: (number | null)[] = [];
    const t = new Throttle({ now: () => now, onRate: (rps) => told.push(rps), onPause: () => expect.unreachable('no pause') });
    for (let i = 0; i < 40; i++) t.acquire(); // 40 requests in half a second: 80/s
    now = 500;
    t.throttled(2000);
    expect(t.rps).toBe(60); // one 429 in 40 requests: a quarter off
    expect(told).toEqual([60]);
    expect(t.pausedForMs).toBe(0);
    await t.acquire(); // the next request goes now, at the cut rate (its own schedule)
    now = 500 + 500; // the climb: half of the rate sent (80/s) per 2 s, from the 429 on
    void t.acquire();
    expect(t.rps).toBe(70);
    now = 500 + 1000;
    expect(t.acquire()).toBeUndefined(); // back to the rate sent: the limit is lifted
    expect(t.rps).toBeNull();
  });

  it("429s within the first's Retry-After are one storm: its cut deepens to half at most; 429s that keep coming after it cut again", () => {
    let now = 0;
    const t = new Throttle({ now: () => now });
    for (; now < 1000; now += 5) void t.acquire(); // 200/s
    for (let i = 0; i < 20; i++) t.throttled(200); // a storm: 20 of 200
    expect(t.rps).toBeCloseTo(100, 5);
    now = 1100;
    void t.acquire();
    expect(t.rps).toBeCloseTo(100 + 100 * (200 / 4000), 5); // climbing at once
    t.throttled(200); // the same storm (within 200 ms of its first): cut from the same rate, half at most
    expect(t.rps).toBeCloseTo(100, 5);
    now = 1300; // after the storm: another cuts the rate in force
    void t.acquire();
    const before = t.rps!;
    t.throttled(200);
    expect(t.rps).toBeCloseTo(before / 2, 5);
  });

  it('a 429 with --rps cuts --rps and climbs back to it, sending meanwhile', () => {
    let now = 0;
    const t = new Throttle({ rps: 10, now: () => now });
    t.throttled(1000);
    expect(t.rps).toBe(5);
    now = 1000;
    void t.acquire();
    expect(t.rps).toBe(7.5);
    now = 2000;
    void t.acquire();
    expect(t.rps).toBe(10);
  });
});

describe('waiting on a shared signal', () => {
  it('any number of backoff and throttle waits add one abort listener to the run\'s signal, and all wake on abort', async () => {
    const controller = new AbortController();
    const waits = Array.from({ length: 50 }, () => sleep(60_000, controller.signal));
    const t = new Throttle({ rps: 1 });
    const gates = Array.from({ length: 20 }, () => t.acquire(controller.signal)).slice(1); // the first goes at once
    expect(gates.every((g) => g !== undefined)).toBe(true);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    const reason = new Error('stop');
    controller.abort(reason);
    await Promise.all([...waits, ...gates].map((w) => expect(w).rejects.toBe(reason)));
    await expect(sleep(10, controller.signal)).rejects.toBe(reason);
    await expect(sleep(5, new AbortController().signal)).resolves.toBeUndefined();
  });
});

describe('progress', () => {
  it('counts events and formats one line with rate, the limit in force, ETA, errors and the current wait', () => {
    const p = new ProgressTracker(0);
    p.apply({ type: 'start', total: 100, done: 20, toAsk: 80 }, 0);
    for (let i = 0; i < 10; i++) p.apply({ type: 'result', id: `q${i}`, error: i < 2 }, 1000);
    expect(formatProgress(p.snapshot(2000))).toBe('30/100 (30.0%)  5.0/s  ETA 14s  2 errors');
    p.apply({ type: 'pause', waitMs: 8000, rps: 2.5 }, 2000);
    const snap = p.snapshot(2000);
    expect(snap).toMatchObject({ done: 30, total: 100, errors: 2, ratePerSec: 5, etaMs: 14_000, waitMs: 8000, limitRps: 2.5 });
    expect(formatProgress(snap)).toBe('30/100 (30.0%)  5.0/s  limit 2.5/s  ETA 14s  2 errors  waiting 8s (429: paused)');
    p.apply({ type: 'rate', rps: 31.46 }, 15_000); // climbing back
    expect(formatProgress(p.snapshot(20_000))).toBe('30/100 (30.0%)  0.5/s  limit 31.5/s  ETA 2m20s  2 errors');
    p.apply({ type: 'rate', rps: null }, 21_000); // lifted
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
