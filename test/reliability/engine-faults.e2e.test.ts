import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { afterAll, describe, expect, it } from 'vitest';
import { createFaultPlanner, FAULT_KINDS, loadKnowledgeBase, SAMPLE_KB, SAMPLE_QUESTIONS, startEngine } from '../../src/engine/index.js';
import type { EngineStats, FaultOptions, RunningEngine } from '../../src/engine/index.js';
import { ReportSchema, type QuestionResult, type Report } from '../../src/model/report.js';
import { readJournal } from '../../src/run/journal-read.js';
import type { RunOptions } from '../../src/run/options.js';
import type { RunEvent } from '../../src/run/progress.js';
import { runEvaluation } from '../../src/run/run.js';
import { runCli, spawnCli } from '../helpers/cli.js';
import { tempDir, writeTemp } from '../helpers/tmp.js';

// The issue 7 fault cases against the embedded engine's own fault injection (src/engine/faults.ts).
// Its decisions are seeded per question text and attempt, so every expectation below is computed from
// the same planner the engine uses: createFaultPlanner(faults, seed) called with each question's text.

const kb = await loadKnowledgeBase(SAMPLE_KB);
const dir = tempDir('answer-eval-efaults-');
const engines: RunningEngine[] = [];
afterAll(() => Promise.all(engines.map((e) => e.close())));
const engineWith = async (faults: FaultOptions, seed: number, port = 0): Promise<RunningEngine> => {
  const engine = await startEngine({ kb, faults, seed, port, host: '127.0.0.1', agent: 'demo' });
  engines.push(engine);
  return engine;
};

/** COUNT distinct questions: the sample set's, then again with ` #k` appended; ids e0..e{COUNT-1}. */
const COUNT = 240;
interface Row {
  id: string;
  question: string;
  [column: string]: string;
}
const sample = parse(readFileSync(SAMPLE_QUESTIONS), { columns: true, bom: true }) as Row[];
const rows: Row[] = Array.from({ length: COUNT }, (_, i) => {
  const row = sample[i % sample.length]!;
  const round = Math.floor(i / sample.length);
  return { ...row, id: `e${i}`, question: round === 0 ? row.question : `${row.question} #${round}` };
});
const writeDataset = (name: string, subset: Row[]): string => writeTemp(dir, name, stringify(subset, { header: true }));
const DATASET = writeDataset('all.csv', rows);
const ids = rows.map((r) => r.id);

const fast = { baseMs: 1, capMs: 5 };
const evaluate = (engine: RunningEngine, options: Partial<RunOptions> = {}) =>
  runEvaluation({
    dataset: DATASET,
    baseUrl: engine.url,
    agent: engine.agent,
    agentCode: engine.code,
    retries: 0,
    backoff: fast,
    concurrency: 8,
    timeoutMs: 5_000,
    maxConsecutiveErrors: 0,
    ...options,
  });

interface Expected {
  id: string;
  error: boolean;
  attempts: number;
  kind: string | null;
  status: number | null;
}

/**
 * What the client makes of each question against a fresh engine with these faults: 5xx, resets, 429s and
 * delays of at least `slowMs` (timeouts) are retried up to `retries` times; malformed and oversized bodies
 * are not. Also counts the faults the engine injects on the way.
 */
function predict(subset: Row[], faults: FaultOptions, seed: number, retries: number, slowMs = Infinity) {
  const plan = createFaultPlanner(faults, seed);
  const injected: EngineStats['faults'] = { error: 0, malformed: 0, reset: 0, throttle: 0, oversize: 0 };
  let requests = 0;
  const expected = subset.map((row): Expected => {
    for (let attempt = 1; ; attempt++) {
      const { delayMs, fault } = plan(row.question);
      requests++;
      let failure: { kind: string; status: number | null; retryable: boolean } | undefined;
      if (delayMs >= slowMs) failure = { kind: 'timeout', status: null, retryable: true }; // gone before the fault
      else if (fault.kind === 'error') failure = { kind: 'http', status: fault.status, retryable: true };
      else if (fault.kind === 'throttle') failure = { kind: 'http', status: 429, retryable: true };
      else if (fault.kind === 'reset') failure = { kind: 'network', status: null, retryable: true };
      else if (fault.kind === 'malformed' || fault.kind === 'oversize') failure = { kind: 'protocol', status: null, retryable: false };
      if (fault.kind !== 'none' && delayMs < slowMs) injected[fault.kind]++;
      if (!failure) return { id: row.id, error: false, attempts: attempt, kind: null, status: null };
      if (!failure.retryable || attempt > retries) return { id: row.id, error: true, attempts: attempt, kind: failure.kind, status: failure.status };
    }
  });
  return { expected, stats: { requests, faults: injected } satisfies EngineStats };
}

const actual = (report: Report): Expected[] =>
  report.results.map((r) => ({
    id: r.id,
    error: r.outcome === 'error',
    attempts: r.attempts,
    kind: r.error?.kind ?? null,
    status: r.error?.status ?? null,
  }));

const errorsByKind = (results: QuestionResult[]): Record<string, number> => {
  const out: Record<string, number> = {};
  for (const r of results) if (r.error) out[r.error.kind] = (out[r.error.kind] ?? 0) + 1;
  return out;
};

/** Every question exactly once, in dataset order, the run complete. */
function expectAccounted(report: Report, expectedIds: string[]): void {
  expect(report.results.map((r) => r.id)).toEqual(expectedIds);
  expect(report.run.status).toBe('completed');
  expect(report.summary.total).toBe(expectedIds.length);
}

describe('the embedded engine’s faults, retries off: every question once, error counts exact', () => {
  const modes: { name: string; faults: FaultOptions; kind: string; injected: (typeof FAULT_KINDS)[number]; extra?: Partial<RunOptions> }[] = [
    { name: '5xx bursts', faults: { errorRate: 0.25 }, kind: 'http', injected: 'error' },
    { name: 'dropped connections', faults: { resetRate: 0.2 }, kind: 'network', injected: 'reset' },
    { name: 'malformed JSON', faults: { malformedRate: 0.2 }, kind: 'protocol', injected: 'malformed' },
    { name: 'oversized bodies', faults: { oversizeRate: 0.1 }, kind: 'protocol', injected: 'oversize', extra: { maxResponseBytes: 1024 * 1024 } },
  ];
  it.each(modes)('$name → $kind errors', async ({ faults, kind, injected, extra }) => {
    const seed = 101;
    const engine = await engineWith(faults, seed);
    const { report } = await evaluate(engine, extra);
    expectAccounted(report, ids);
    const stats = engine.stats();
    expect(stats.requests).toBe(COUNT);
    expect(stats.faults[injected]).toBeGreaterThan(5);
    expect(errorsByKind(report.results)).toEqual({ [kind]: stats.faults[injected] });
    expect(report.summary.outcomes.error).toBe(stats.faults[injected]);
    for (const other of FAULT_KINDS) if (other !== injected) expect(stats.faults[other]).toBe(0);
    // and which questions: exactly those the planner picks
    const predicted = predict(rows, faults, seed, 0);
    expect(actual(report)).toEqual(predicted.expected);
    expect(stats).toEqual(predicted.stats);
    if (kind === 'http') expect(new Set(report.results.flatMap((r) => r.error?.status ?? []))).toEqual(new Set([500, 502, 503]));
  });

  it('answers slower than the timeout → timeout errors, exactly the questions the planner delays past it', async () => {
    // log-normal delays, median 20 ms, p99 3 s; the timeout is 1 s. Questions whose delay lies within
    // 500 ms of the timeout (500-1500 ms) are left out of the dataset, so none is borderline: the fast
    // ones finish with 500 ms to spare, the slow ones are still asleep 500 ms after the client gave up.
    const faults: FaultOptions = { latency: { median: 20, p99: 3000 } };
    const seed = 7;
    const TIMEOUT = 1000;
    const plan = createFaultPlanner(faults, seed);
    const delays = new Map(rows.map((r) => [r.id, plan(r.question).delayMs]));
    const kept = rows.filter((r) => delays.get(r.id)! <= TIMEOUT - 500 || delays.get(r.id)! >= TIMEOUT + 500);
    const slow = kept.filter((r) => delays.get(r.id)! >= TIMEOUT + 500);
    expect(kept.length).toBeGreaterThan(200);
    expect(slow.length).toBeGreaterThanOrEqual(5);

    const engine = await engineWith(faults, seed);
    const { report } = await evaluate(engine, { dataset: writeDataset('slow.csv', kept), timeoutMs: TIMEOUT, concurrency: 16 });
    expectAccounted(report, kept.map((r) => r.id));
    expect(report.results.filter((r) => r.error).map((r) => r.id)).toEqual(slow.map((r) => r.id));
    expect(errorsByKind(report.results)).toEqual({ timeout: slow.length });
    expect(actual(report)).toEqual(predict(kept, faults, seed, 0, TIMEOUT).expected);
    expect(engine.stats()).toEqual({ requests: kept.length, faults: { error: 0, malformed: 0, reset: 0, throttle: 0, oversize: 0 } });
  });
});

describe('the embedded engine’s faults with retries: the outcome of every question as predicted', () => {
  it('5xx, resets, malformed and oversized bodies, --retries 2: per-question errors and attempts exact', async () => {
    const faults: FaultOptions = { errorRate: 0.2, resetRate: 0.15, malformedRate: 0.04, oversizeRate: 0.04 };
    const seed = 2024;
    const engine = await engineWith(faults, seed);
    const { report } = await evaluate(engine, { retries: 2, concurrency: 8 });
    expectAccounted(report, ids);
    const predicted = predict(rows, faults, seed, 2);
    expect(actual(report)).toEqual(predicted.expected);
    // the prediction has every case: passed on a retry, retries used up, never retried
    const e = predicted.expected;
    expect(e.filter((x) => !x.error && x.attempts > 1).length).toBeGreaterThan(10);
    expect(e.filter((x) => x.error && x.attempts === 3).length).toBeGreaterThan(0);
    expect(e.filter((x) => x.kind === 'protocol' && x.attempts > 1).length).toBeGreaterThan(0);
    const stats = engine.stats();
    expect(report.results.reduce((sum, r) => sum + r.attempts, 0)).toBe(stats.requests);
    expect(stats).toEqual(predicted.stats);
  });

  it('429 with Retry-After: the throttled questions wait, are asked again, attempts exact', async () => {
    const RETRY_AFTER = 0.2; // seconds: a fifth of the engine's default, for a short test; honoured all the same
    const faults: FaultOptions = { throttleRate: 0.3, retryAfter: RETRY_AFTER };
    const seed = 10;
    const subset = rows.slice(0, 12);
    const predicted = predict(subset, faults, seed, 2);
    // seed 10: two questions throttled, one once and one twice, both answered in the end (a 30% share of 429s halves
    // the rate each time, so a seed with more throttled attempts makes a slow test)
    expect(predicted.expected.map((x) => x.attempts)).toEqual([1, 1, 1, 1, 1, 1, 2, 1, 1, 1, 3, 1]);
    expect(predicted.expected.every((x) => !x.error)).toBe(true);
    const engine = await engineWith(faults, seed);
    const events: RunEvent[] = [];
    const started = performance.now();
    const { report } = await evaluate(engine, { dataset: writeDataset('throttle.csv', subset), retries: 2, concurrency: 12, onEvent: (e) => events.push(e) });
    expectAccounted(report, subset.map((r) => r.id));
    expect(actual(report)).toEqual(predicted.expected);
    expect(engine.stats()).toEqual(predicted.stats);
    expect(report.results.reduce((sum, r) => sum + r.attempts, 0)).toBe(engine.stats().requests);
    // Retry-After honoured: every retry after a 429 waited at least what it asked; the others went on, slower (no pause)
    const retries = events.filter((e) => e.type === 'retry');
    expect(retries).toHaveLength(predicted.stats.faults.throttle - predicted.expected.filter((x) => x.status === 429).length);
    for (const r of retries) expect(r).toMatchObject({ reason: 'http 429', waitMs: expect.any(Number) as number });
    expect(retries.every((r) => r.type === 'retry' && r.waitMs >= RETRY_AFTER * 1000)).toBe(true);
    expect(events.some((e) => e.type === 'pause')).toBe(false);
    expect(events.some((e) => e.type === 'rate' && e.rps !== null)).toBe(true);
    // one question throttled twice: two waits one after the other
    expect(performance.now() - started).toBeGreaterThanOrEqual(2 * RETRY_AFTER * 1000);
  });
});

describe('SIGKILL mid-run against the engine, resumed against a restarted engine (built CLI)', () => {
  const readReport = (out: string): Report => ReportSchema.parse(JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')));
  const journaledCount = (out: string): number => {
    try {
      return readFileSync(join(out, 'journal.jsonl'), 'utf8').split('\n').length - 2; // the header, and the last (maybe torn) line
    } catch {
      return 0;
    }
  };
  const waitFor = async (cond: () => boolean, timeoutMs = 20_000): Promise<void> => {
    const until = performance.now() + timeoutMs;
    while (!cond()) {
      if (performance.now() > until) throw new Error('timed out waiting');
      await new Promise((r) => setTimeout(r, 5));
    }
  };
  const perQuestion = (r: Report) =>
    r.results.map((x) => ({ id: x.id, outcome: x.outcome, attempts: x.attempts, kind: x.error?.kind ?? null, status: x.error?.status ?? null, top1: x.top1Index, seqs: x.answers.map((a) => a.sequence_number) }));

  it('SIGKILL at about half way, then --resume: the same per-question outcomes as an uninterrupted run', async () => {
    const faults: FaultOptions = { errorRate: 0.12, resetRate: 0.06, latency: { median: 8, p99: 30 } };
    const seed = 77;
    const args = (engine: RunningEngine, out: string) =>
      ['run', '-d', DATASET, '--base-url', engine.url, '--agent', 'demo', '-o', out, '--format', 'json', '-c', '4', '--retries', '2', '--quiet'];

    const a = await engineWith(faults, seed);
    const port = Number(new URL(a.url).port);
    const c = await engineWith(faults, seed);
    const cut = join(dir, 'cut');
    const whole = join(dir, 'whole');
    // the uninterrupted run against C, alongside the run that is killed
    const uninterrupted = runCli(args(c, whole), { ANSWER_AGENT_CODE: c.code });
    const killed = spawnCli(args(a, cut), { ANSWER_AGENT_CODE: a.code });
    await waitFor(() => journaledCount(cut) >= COUNT / 2 || killed.child.exitCode !== null);
    killed.child.kill('SIGKILL');
    const { signal } = await killed.exited;
    expect(signal).toBe('SIGKILL');
    const beforeResume = await readJournal(cut);
    const journaled = new Set(beforeResume.results.keys());
    expect(journaled.size).toBeGreaterThanOrEqual(COUNT / 2 - 1);
    expect(journaled.size).toBeLessThan(COUNT * 0.8);
    const askedOfA = a.stats().requests;
    await a.close();
    engines.splice(engines.indexOf(a), 1);

    // engine B: the same seed on the same port (the journal holds the base URL); its counters start at 0
    const b = await engineWith(faults, seed, port);
    expect(b.url).toBe(a.url);
    const resumed = await runCli(['run', '--resume', cut, '--quiet'], { ANSWER_AGENT_CODE: b.code });
    // the killed run could not remove its lock: the resumed run takes it over, saying so
    expect(resumed.stderr).toMatch(new RegExp(`^answer-eval: --resume: as the run was started: --format json\nanswer-eval: ${join(cut, 'answer-eval.lock')}: took over the lock of pid ${killed.child.pid} \\(since [^)]+\\), which is no longer running\n(answer-eval: warning: \\d+ of \\d+ questions \\([\\d.]+%\\) ended in error: [^\\n]*\\n)?$`));
    expect(resumed.code).toBe(0);
    const done = await uninterrupted;
    // the faults end some questions in error: said in one line
    expect(done.stderr).toMatch(/^(answer-eval: warning: \d+ of \d+ questions \([\d.]+%\) ended in error: [^\n]*\n)?$/);
    expect(done.code).toBe(0);

    const report = readReport(cut);
    const reference = readReport(whole);
    expectAccounted(report, ids);
    expect(report.run.resumed).toEqual({ fromJournal: journaled.size, asked: COUNT - journaled.size, rerun: null });
    expect(perQuestion(report)).toEqual(perQuestion(reference));
    expect(actual(reference)).toEqual(predict(rows, faults, seed, 2).expected);
    const { latencyMs: _a, ...summary } = report.summary;
    const { latencyMs: _b, ...referenceSummary } = reference.summary;
    expect(summary).toEqual(referenceSummary);

    // the resumed run asked only what the journal lacked: B saw exactly their attempts
    const notJournaled = reference.results.filter((r) => !journaled.has(r.id));
    expect(b.stats().requests).toBe(notJournaled.reduce((sum, r) => sum + r.attempts, 0));
    const after = await readJournal(cut);
    expect(after.results.size).toBe(COUNT);
    const journalIds = readFileSync(join(cut, 'journal.jsonl'), 'utf8').trim().split('\n').slice(1).map((l) => (JSON.parse(l) as { id: string }).id);
    expect(journalIds).toHaveLength(COUNT);
    expect(new Set(journalIds.slice(journaled.size))).toEqual(new Set(notJournaled.map((r) => r.id)));
    // and A had seen the journaled questions plus those in flight at the kill
    expect(askedOfA).toBeGreaterThanOrEqual(reference.results.filter((r) => journaled.has(r.id)).reduce((sum, r) => sum + r.attempts, 0));
  });
});
