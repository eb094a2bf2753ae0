import { afterAll, describe, expect, it } from 'vitest';
import { RunAbortedError } from '../../src/errors.js';
import type { Report } from '../../src/model/report.js';
import type { RunEvent } from '../../src/run/progress.js';
import { runEvaluation } from '../../src/run/run.js';
import { faultDataset, healthyOutcome, specServerFactory, type Fault, type FaultPlan, type FaultServerFactory, type FaultTarget } from '../helpers/fault-server.js';
import { tempDir, writeTemp } from '../helpers/tmp.js';

// The scriptable spec server; the same cases against the embedded engine's own fault injection are in
// engine-faults.test.ts.
const factory: FaultServerFactory = specServerFactory;

const dir = tempDir();
const targets: FaultTarget[] = [];
afterAll(() => Promise.all(targets.map((t) => t.close())));
const serve = async (plan: FaultPlan) => {
  const t = await factory(plan);
  targets.push(t);
  return t;
};
const fast = { baseMs: 1, capMs: 5 };
const TIMEOUT_MS = 1000; // generous: the first requests of a cold process on a busy CI machine are slow

interface Expected {
  outcome: string;
  attempts: number;
  kind: string | null;
}

/** What the client should make of a plan: retryable faults are retried up to `retries` times. */
function expectedOf(plan: FaultPlan, n: number, retries: number): Expected {
  for (let attempt = 1; ; attempt++) {
    const f: Fault = plan(n, attempt);
    let kind: string | null = null;
    let retryable = false;
    if (f.kind === 'ok' || (f.kind === 'slow' && f.delayMs < TIMEOUT_MS)) return { outcome: healthyOutcome(n), attempts: attempt, kind: null };
    if (f.kind === 'status') [kind, retryable] = ['http', f.status === 429 || f.status >= 500];
    if (f.kind === 'reset') [kind, retryable] = ['network', true];
    if (f.kind === 'slow') [kind, retryable] = ['timeout', true];
    if (f.kind === 'malformed' || f.kind === 'oversized') kind = 'protocol';
    if (!retryable || attempt > retries) return { outcome: 'error', attempts: attempt, kind };
  }
}

/** Every question accounted for exactly once, in dataset order, each as the plan says; error counts exact. */
function expectAccounted(report: Report, count: number, plan: FaultPlan, retries: number): void {
  expect(report.results.map((r) => r.id)).toEqual(Array.from({ length: count }, (_, n) => `id${n}`));
  const expected = Array.from({ length: count }, (_, n) => expectedOf(plan, n, retries));
  expect(report.results.map((r) => ({ outcome: r.outcome, attempts: r.attempts, kind: r.error?.kind ?? null }))).toEqual(expected);
  expect(report.summary.outcomes.error).toBe(expected.filter((e) => e.outcome === 'error').length);
  expect(report.summary.total).toBe(count);
  expect(report.run.status).toBe('completed');
}

async function runPlan(name: string, count: number, plan: FaultPlan, retries: number, extra: { concurrency?: number; maxResponseBytes?: number } = {}) {
  const target = await serve(plan);
  const dataset = writeTemp(dir, `${name}.jsonl`, faultDataset(count));
  const outcome = await runEvaluation({
    dataset, baseUrl: target.url, agent: 'a', agentCode: 'code-1234', retries, backoff: fast, timeoutMs: TIMEOUT_MS,
    concurrency: extra.concurrency ?? 8, maxConsecutiveErrors: 0, ...extra,
  });
  return { ...outcome, target };
}

describe('fault injection: every question accounted for exactly once', () => {
  it('5xx bursts: retried with backoff until they pass or --retries runs out', async () => {
    const plan: FaultPlan = (n, attempt) => {
      if (n % 5 === 0) return attempt <= 2 ? { kind: 'status', status: 503 } : { kind: 'ok' };
      if (n % 7 === 0) return { kind: 'status', status: 500 };
      if (n % 11 === 0) return { kind: 'status', status: 400 }; // other 4xx: never retried
      return { kind: 'ok' };
    };
    const { report, target } = await runPlan('burst', 40, plan, 2);
    expectAccounted(report, 40, plan, 2);
    expect(report.results[5]).toMatchObject({ attempts: 3, error: null });
    expect(report.results[7]).toMatchObject({ outcome: 'error', attempts: 3, error: { kind: 'http', status: 500 } });
    expect(report.results[11]).toMatchObject({ outcome: 'error', attempts: 1, error: { kind: 'http', status: 400 } });
    expect(target.requests()).toHaveLength(report.results.reduce((sum, r) => sum + r.attempts, 0));
  });

  it('dropped connections: a network error, retried', async () => {
    const plan: FaultPlan = (n, attempt) => (n % 6 === 0 || (n % 4 === 1 && attempt === 1) ? { kind: 'reset' } : { kind: 'ok' });
    const { report } = await runPlan('reset', 30, plan, 1);
    expectAccounted(report, 30, plan, 1);
    expect(report.results[0]?.error?.kind).toBe('network');
  });

  it('answers slower than the timeout: a timeout error, retried', async () => {
    const plan: FaultPlan = (n, attempt) => (n % 5 === 2 && (n === 2 || attempt === 1) ? { kind: 'slow', delayMs: 1500 } : { kind: 'ok' });
    const { report } = await runPlan('slow', 15, plan, 1);
    expectAccounted(report, 15, plan, 1);
    expect(report.results[2]).toMatchObject({ outcome: 'error', attempts: 2, latencyMs: null, error: { kind: 'timeout' } });
  });

  it('malformed JSON: a protocol error, never retried, never a wrong answer', async () => {
    const plan: FaultPlan = (n) => (n % 3 === 0 ? { kind: 'malformed' } : { kind: 'ok' });
    const { report } = await runPlan('malformed', 12, plan, 2);
    expectAccounted(report, 12, plan, 2);
    expect(report.results[0]?.error?.message).toMatch(/^the body is not JSON/);
  });

  it('oversized bodies (with and without content-length): a protocol error, not an out-of-memory', async () => {
    const plan: FaultPlan = (n) => (n % 4 === 0 ? { kind: 'oversized', bytes: 50_000, chunked: n % 8 === 0 } : { kind: 'ok' });
    const { report } = await runPlan('oversized', 16, plan, 2, { maxResponseBytes: 20_000 });
    expectAccounted(report, 16, plan, 2);
    for (const n of [0, 4]) expect(report.results[n]?.error?.message).toBe('the response body is larger than 20000 bytes (--max-response-bytes)');
  });

  it('everything at once', async () => {
    const faults: Fault[] = [{ kind: 'ok' }, { kind: 'status', status: 502 }, { kind: 'reset' }, { kind: 'malformed' }, { kind: 'slow', delayMs: 1500 }, { kind: 'ok' }];
    const plan: FaultPlan = (n, attempt) => faults[(n + attempt) % faults.length]!;
    const { report } = await runPlan('mixed', 60, plan, 2, { concurrency: 16 });
    expectAccounted(report, 60, plan, 2);
  });
});

describe('polite load', () => {
  it('--pause-on-429: a 429 with Retry-After pauses the whole run: nothing is sent during the pause', async () => {
    let first = true;
    const events: RunEvent[] = [];
    let pauseSeenAt: number | undefined;
    const target = await serve((n) => {
      if (n === 3 && first) {
        first = false;
        return { kind: 'status', status: 429, retryAfter: '0.5' };
      }
      return { kind: 'slow', delayMs: 10 };
    });
    const dataset = writeTemp(dir, 'throttled.jsonl', faultDataset(12));
    const started = performance.now();
    const { report } = await runEvaluation({
      dataset, baseUrl: target.url, agent: 'a', agentCode: 'c', concurrency: 4, backoff: fast, pauseOn429: true,
      onEvent: (e) => {
        events.push(e);
        if (e.type === 'pause') pauseSeenAt ??= performance.now();
      },
    });
    expect(report.results.every((r) => r.error === null)).toBe(true);
    // same process, same clock: from the moment the client took in the 429, nothing new may reach the server
    // for the pause, half a second (a request already on the wire may land a little after)
    const pausedAt = pauseSeenAt!;
    const inPause = target.requests().filter((r) => r.at > pausedAt + 150 && r.at < pausedAt + 450);
    expect(inPause).toEqual([]);
    expect(performance.now() - started).toBeGreaterThanOrEqual(500);
    expect(events.find((e) => e.type === 'pause')).toMatchObject({ type: 'pause', waitMs: 500 });
    expect(report.results[3]?.attempts).toBe(2);
  });

  it('--rps spaces requests across all workers', async () => {
    const target = await serve(() => ({ kind: 'ok' }));
    const dataset = writeTemp(dir, 'rps.jsonl', faultDataset(8));
    await runEvaluation({ dataset, baseUrl: target.url, agent: 'a', agentCode: 'c', concurrency: 8, rps: 20 });
    const at = target.requests().map((r) => r.at).sort((a, b) => a - b);
    expect(at[at.length - 1]! - at[0]!).toBeGreaterThanOrEqual(7 * 50 - 20);
  });

  it('the circuit breaker stops a run against a dead service', async () => {
    const target = await serve(() => ({ kind: 'status', status: 503 }));
    const dataset = writeTemp(dir, 'dead.jsonl', faultDataset(200));
    const { report, stoppedBy } = await runEvaluation({
      dataset, baseUrl: target.url, agent: 'a', agentCode: 'c', concurrency: 2, retries: 0, maxConsecutiveErrors: 5,
    });
    expect(stoppedBy).toBeInstanceOf(RunAbortedError);
    expect(stoppedBy?.message).toMatch(/^circuit breaker: 5 questions in a row ended in error \(the last: HTTP 503 from .*\); stopped instead of hammering the service \(--max-consecutive-errors\)$/);
    expect(report.run).toMatchObject({ status: 'partial', stopReason: stoppedBy?.message });
    expect(target.requests().length).toBeLessThanOrEqual(5 + 2);
    expect(report.results).toHaveLength(target.requests().length); // requests in flight were let finish
    expect(report.summary.outcomes.error).toBe(report.results.length);
  });
});
