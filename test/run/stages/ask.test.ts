import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { RunEvent } from '../../../src/run/progress.js';
import type { RunOptions } from '../../../src/run/options.js';
import { askAll } from '../../../src/run/stages/ask.js';
import { planRun } from '../../../src/run/stages/plan.js';
import { Recorder } from '../../../src/run/stages/record.js';
import { OpenedDatasets } from '../../../src/run/stop-reasons.js';
import { Stopping } from '../../../src/run/stopping.js';
import { item, startSpecServer, type Script, type SpecServer } from '../../helpers/spec-server.js';
import { tempDir, writeTemp } from '../../helpers/tmp.js';

// Stage 2, ask (with 3 and 4, judge and record, as they run): a real server on the loopback, a memory record.
const dir = tempDir('answer-eval-ask-');
const datasets = new OpenedDatasets();
afterEach(() => datasets.close());
const servers: SpecServer[] = [];
afterAll(() => Promise.all(servers.map((s) => s.close())));
const textOf = (body: Record<string, unknown>): string => (body['question'] as { text: string }).text;
const dataset = writeTemp(dir, 'six.csv', `id,question,expected_sequence\n${[1, 2, 3, 4, 5, 6].map((n) => `q${n},question ${n},1`).join('\n')}\n`);

/** Plans `dataset` against a server answering `script`, opens its record and asks: the stages 1 to 4 as runEvaluation runs them. */
async function ask(script: Script, over: Partial<RunOptions> = {}) {
  const server = await startSpecServer(script);
  servers.push(server);
  const events: RunEvent[] = [];
  const progress: string[] = [];
  const plan = await planRun(
    { dataset, baseUrl: server.url, agent: 'a', agentCode: 'code-1234', backoff: { baseMs: 1, capMs: 2 }, onEvent: (e) => events.push(e), onProgress: (d, t) => progress.push(`${d}/${t}`), ...over },
    datasets,
  );
  const stopping = new Stopping(plan.secrets);
  const record = await Recorder.open(plan, stopping.stop);
  const asked = await askAll(plan, record, stopping);
  return { server, events, progress, record, asked };
}

describe('ask', () => {
  it('asks every planned question once, each judged and recorded at its index, and says so as it goes', async () => {
    const { server, events, progress, record, asked } = await ask((req) => ({ body: { answers: [item(textOf(req.body) === 'question 4' ? 2 : 1, 80)] } }), { concurrency: 3 });
    expect(asked.stoppedBy).toBeUndefined();
    expect(server.received.map((r) => textOf(r.body)).sort()).toEqual([1, 2, 3, 4, 5, 6].map((n) => `question ${n}`));
    expect([...record.results()].map((r) => `${r.id} ${r.outcome}`)).toEqual(['q1 correct', 'q2 correct', 'q3 correct', 'q4 wrong', 'q5 correct', 'q6 correct']);
    expect(progress).toEqual(['1/6', '2/6', '3/6', '4/6', '5/6', '6/6']);
    expect(events[0]).toEqual({ type: 'start', total: 6, done: 0, toAsk: 6 });
    expect(events.filter((e) => e.type === 'result')).toHaveLength(6);
    expect(events.at(-1)).toEqual({ type: 'journaled' });
  });

  it('retries what may pass, and says each retry', async () => {
    const { server, events, record } = await ask((_req, n) => (n === 1 ? { status: 503, body: {} } : { body: { answers: [item(1, 80)] } }), { concurrency: 1, retries: 1 });
    expect(server.received).toHaveLength(7);
    expect(events.filter((e) => e.type === 'retry')).toMatchObject([{ type: 'retry', id: 'q1', reason: 'http 503' }]);
    expect([...record.results()].map((r) => r.attempts)).toEqual([2, 1, 1, 1, 1, 1]);
  });

  it('the circuit breaker stops the run after --max-consecutive-errors questions in a row ended in error', async () => {
    const { server, events, record, asked } = await ask(() => ({ status: 500, body: {} }), { concurrency: 1, retries: 0, maxConsecutiveErrors: 3 });
    expect(String((asked.stoppedBy as Error).message)).toMatch(/^circuit breaker: 3 questions in a row ended in error \(the last: HTTP 500 from/);
    // the third reply freed its slot, and the fourth question went out, before the third was judged; nothing after it
    expect(server.received).toHaveLength(4);
    expect(record.finished).toBe(4);
    expect(events.find((e) => e.type === 'stopping')).toMatchObject({ reason: expect.stringMatching(/^circuit breaker/) });
  });

  it('an outside stop: nothing more is sent, the request in flight gets the grace period, then is given up', async () => {
    const stop = new AbortController();
    const started = performance.now();
    const { server, record, asked } = await ask(
      () => {
        stop.abort();
        return { body: { answers: [item(1, 80)] }, delayMs: 5_000 };
      },
      { concurrency: 1, retries: 0, signal: stop.signal, graceMs: 100 },
    );
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(server.received).toHaveLength(1);
    expect((asked.stoppedBy as Error).message).toBe('interrupted');
    expect(record.finished).toBe(0);
  });

});
