import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE_CONVERSATIONS, SAMPLE_KB, startEngine, type RunningEngine } from '../../src/engine/index.js';
import type { QuestionResult } from '../../src/model/report.js';
import { runEvaluation } from '../../src/run/run.js';
import type { RunOptions } from '../../src/run/options.js';
import { startFrontServer, type FrontServer } from '../helpers/front-server.js';
import { tempDir, writeTemp } from '../helpers/tmp.js';

// Issue 15: conversations asked by runEvaluation against the embedded engine over HTTP (a front server in between
// where a test needs to fail a turn or see when each request arrived).
const dir = tempDir();
const fast = { baseMs: 1, capMs: 5 };
const sampleLine = (id: string): string => readFileSync(SAMPLE_CONVERSATIONS, 'utf8').split('\n').find((l) => l.includes(`"id": "${id}"`))!;
const jsonl = (rows: unknown[]): string => `${rows.map((r) => (typeof r === 'string' ? r : JSON.stringify(r))).join('\n')}\n`;
const userOf = (body: Record<string, unknown>): unknown => body['username'];
const textOf = (body: Record<string, unknown>): string => (body['question'] as { text: string }).text;

let engine: RunningEngine;
let front: FrontServer;
/** Replies the front server gives itself, by question text (the rest goes to the engine). */
const own = new Map<string, () => { status: number; body: unknown } | undefined>();
beforeAll(async () => {
  engine = await startEngine({ kb: SAMPLE_KB });
  front = await startFrontServer((text) => own.get(text)?.());
  front.target = { url: engine.url, code: engine.code };
});
afterAll(async () => {
  await front.close();
  await engine.close();
});

const run = (dataset: string, over: Partial<RunOptions> = {}) =>
  runEvaluation({ dataset, baseUrl: front.url, agent: engine.agent, agentCode: 'code', concurrency: 4, backoff: fast, ...over });
const byId = (results: readonly QuestionResult[]) => Object.fromEntries(results.map((r) => [r.id, r]));

describe('conversations against the embedded engine', () => {
  it('the sample: 12 dialogues pass; meter-3, outage-2 and repeat-2 fail at the intended turn, with the reason', async () => {
    const { report } = await runEvaluation({ dataset: SAMPLE_CONVERSATIONS, baseUrl: engine.url, agent: engine.agent, agentCode: engine.code, concurrency: 8 });
    const failing = report.results.filter((r) => r.conversation!.turn === r.conversation!.at);
    expect(failing.map((r) => [r.conversation!.id, r.conversation!.verdict, r.conversation!.at, r.outcome])).toEqual([
      ['meter-3', 'failed', 3, 'wrong'],
      ['outage-2', 'failed', 2, 'wrong'],
      ['repeat-2', 'failed', 2, 'check_failed'],
    ]);
    expect(failing.map((r) => r.reason)).toEqual([
      'expected label "meter_reading_value"; top-1 is #201 "meter_reading_number" (score 47.7); and expected dialog none; the reply leaves it in_progress',
      'expected label "outage_area"; top-1 is #22 "late_payment" (score 53.8)',
      'expected post-processed answer "contains:already answer"; the reply has none',
    ]);
    expect(report.metrics!.conversations).toMatchObject({ count: 15, verdicts: { passed: 12, failed: 3, error: 0 }, breaksMost: { turn: 2, conversations: 2 } });
    expect(report.run.dataset).toMatchObject({ questions: 46, conversations: 15 });

    const r = byId(report.results);
    // a passing dialogue: every turn correct, the dialogue open until its last turn closes it
    expect(['move-1#1', 'move-1#2', 'move-1#3'].map((id) => [r[id]!.outcome, r[id]!.checks, r[id]!.conversation!.verdict])).toEqual([
      ['correct', { dialog: true }, 'passed'],
      ['correct', { dialog: true }, 'passed'],
      ['correct', { dialog: true }, 'passed'],
    ]);
    // a repeated question: post_processed_answer the second time only
    expect(r['repeat-1#1']!.postProcessedAnswer).toBeUndefined();
    expect(r['repeat-1#3']).toMatchObject({ outcome: 'correct', checks: { post_processed: true }, postProcessedAnswer: expect.stringContaining('already answer') });
    // its own username, else a fresh one per run and conversation; never a guest
    expect(r['trasloco-1#1']!.conversation!.user).toBe('maria.rossi');
    expect(r['move-1#1']!.conversation!.user).toMatch(/^answer-eval-[0-9a-f]{8}-move-1$/);
  });

  it('a turn that ends in error (a 503) is not retried and ends its conversation: the turns after it are skipped, never sent', async () => {
    let payCalls = 0;
    own.set('can you supply my new home too?', () => ({ status: 503, body: { error: { message: 'busy' } } }));
    own.set('how can I pay my bill?', () => (++payCalls === 1 ? { status: 503, body: { error: { message: 'busy' } } } : undefined));
    try {
      const dataset = writeTemp(dir, 'error.jsonl', jsonl([sampleLine('move-1'), { id: 'pay', question: 'how can I pay my bill?', expected_label: 'payment_methods' }]));
      const before = front.received.length;
      const { report } = await run(dataset, { retries: 2 });
      const r = byId(report.results);
      expect(['move-1#1', 'move-1#2', 'move-1#3'].map((id) => [r[id]!.outcome, r[id]!.attempts, r[id]!.conversation!.verdict, r[id]!.conversation!.at])).toEqual([
        ['correct', 1, 'error', 2],
        ['error', 1, 'error', 2],
        ['skipped', 0, 'error', 2],
      ]);
      expect(r['move-1#2']!.error).toMatchObject({ kind: 'http', status: 503 });
      expect(r['move-1#3']!.reason).toBe('not asked: turn 2 of the conversation ended in error');
      // a single question is retried on a 503
      expect(r['pay']).toMatchObject({ outcome: 'correct', attempts: 2 });
      const sent = front.received.slice(before).filter((q) => userOf(q.body) === r['move-1#1']!.conversation!.user).map((q) => textOf(q.body));
      expect(sent).toEqual(["I'm moving house next month", 'can you supply my new home too?']);
      expect(report.metrics!.conversations!.byTurn[1]).toMatchObject({ errorsHere: 1 });
    } finally {
      own.clear();
    }
  });

  it('a turn is retried when its request cannot have reached the service (connection refused)', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as { port: number }).port;
    await new Promise((resolve) => closed.close(resolve));
    const dataset = writeTemp(dir, 'refused.jsonl', jsonl([sampleLine('outage-2')]));
    const { report } = await run(dataset, { baseUrl: `http://127.0.0.1:${port}`, retries: 2 });
    expect(report.results.map((r) => [r.outcome, r.attempts, r.error?.message.startsWith('ECONNREFUSED') ?? null])).toEqual([
      ['error', 3, true],
      ['skipped', 0, null],
    ]);
  });

  it('two conversations of the same turns, asked at the same time, do not share state', async () => {
    const slow = await startEngine({ kb: SAMPLE_KB, faults: { latency: { median: 150 } } });
    const watch = await startFrontServer(() => undefined);
    watch.target = { url: slow.url, code: slow.code };
    try {
      const turns = [
        { question: "I'm moving house next month", expected_label: 'moving_house', expect_dialog: 'in_progress', expect_post_processed: 'none' },
        { question: 'can you supply my new home too?', expected_label: 'moving_keep_supply', expect_dialog: 'in_progress', expect_post_processed: 'none' },
      ];
      const dataset = writeTemp(dir, 'twins.jsonl', jsonl([{ id: 'twin-a', turns }, { id: 'twin-b', turns }]));
      const { report } = await runEvaluation({ dataset, baseUrl: watch.url, agent: slow.agent, agentCode: 'c', concurrency: 2 });
      expect(report.results.map((r) => [r.id, r.outcome, r.conversation!.verdict])).toEqual([
        ['twin-a#1', 'correct', 'passed'], ['twin-a#2', 'correct', 'passed'], ['twin-b#1', 'correct', 'passed'], ['twin-b#2', 'correct', 'passed'],
      ]);
      const users = report.results.map((r) => r.conversation!.user);
      expect(new Set(users).size).toBe(2);
      // both first turns were sent before either second turn: the two ran side by side, each as its own user
      expect(watch.received.map((q) => [users.indexOf(userOf(q.body) as string) < 2 ? 'a' : 'b', textOf(q.body).startsWith("I'm") ? 1 : 2].join(''))
        .slice(0, 2).sort()).toEqual(['a1', 'b1']);
      expect(watch.received.every((q) => q.body['guest'] === undefined)).toBe(true);
    } finally {
      await watch.close();
      await slow.close();
    }
  });

  it('honours a delay (seconds) before the next turn, capped by maxTurnDelayMs', async () => {
    const dataset = writeTemp(dir, 'delay.jsonl', jsonl([sampleLine('dispute-charge')]));
    const gap = (user: string): number => {
      const asked = front.received.filter((q) => userOf(q.body) === user);
      return asked[3]!.at - asked[2]!.at;
    };
    const whole = (await run(dataset)).report;
    expect(whole.results.map((r) => r.conversation!.waitedMs ?? 0)).toEqual([0, 0, 2000, 0]);
    expect(whole.run.options.maxTurnDelayMs).toBe(10_000);
    expect(gap(whole.results[0]!.conversation!.user)).toBeGreaterThanOrEqual(2000);

    const capped = (await run(dataset, { maxTurnDelayMs: 300 })).report;
    expect(capped.results.map((r) => r.conversation!.waitedMs ?? 0)).toEqual([0, 0, 300, 0]);
    expect(capped.results.every((r) => r.conversation!.verdict === 'passed')).toBe(true);
    const cappedGap = gap(capped.results[0]!.conversation!.user);
    expect(cappedGap).toBeGreaterThanOrEqual(300);
    expect(cappedGap).toBeLessThan(2000);
  });

  it('--repeat cannot ask conversations: refused before anything is sent', async () => {
    const before = front.received.length;
    const dataset = writeTemp(dir, 'repeat.jsonl', jsonl([{ id: 'q', question: 'how can I pay my bill?' }, sampleLine('outage-1')]));
    await expect(run(dataset, { repeat: 2 })).rejects.toThrow(/--repeat 2 cannot ask conversations \(.*repeat\.jsonl:2: conversation "outage-1"\)/);
    expect(front.received.length).toBe(before);
  });

  it('resume asks a conversation cut off half way again, from its first turn, as a new user; the whole ones come from the journal', async () => {
    const out = join(dir, 'resume');
    const dataset = writeTemp(dir, 'resume.jsonl', jsonl([sampleLine('move-1'), sampleLine('repeat-1'), { id: 'pay', question: 'how can I pay my bill?', expected_label: 'payment_methods' }]));
    const first = (await run(dataset, { journalDir: out, concurrency: 1 })).report;
    // the journal as a crash would leave it: repeat-1's last turn never written
    const journal = join(out, 'journal.jsonl');
    const lines = readFileSync(journal, 'utf8').split('\n').filter((l) => l !== '');
    writeFileSync(journal, `${lines.filter((l) => !l.startsWith('{"id":"repeat-1#3"')).join('\n')}\n`);
    const before = front.received.length;
    const resumed = (await run(dataset, { journalDir: out, resume: true })).report;
    expect(resumed.run.resumed).toEqual({ fromJournal: 4, asked: 3, rerun: null });
    expect(resumed.results.map((r) => [r.id, r.outcome])).toEqual(first.results.map((r) => [r.id, r.outcome]));
    const users = (report: typeof first) => Object.fromEntries(report.results.filter((r) => r.conversation).map((r) => [r.id, r.conversation!.user]));
    expect(users(resumed)['move-1#1']).toBe(users(first)['move-1#1']);
    expect(users(resumed)['repeat-1#1']).not.toBe(users(first)['repeat-1#1']);
    expect(front.received.slice(before).map((q) => textOf(q.body))).toEqual(['where is my customer number?', 'thanks', 'Where is my customer number']);
  });
});
