import { afterAll, describe, expect, it } from 'vitest';
import type { RunEvent } from '../../src/run/progress.js';
import { runEvaluation } from '../../src/run/run.js';
import { item, startSpecServer, type Script, type SpecServer } from '../helpers/spec-server.js';
import { tempDir, writeTemp } from '../helpers/tmp.js';

// Issue 27 point 5: a 429 with Retry-After delays the retried request (never earlier than it says) and lowers the
// rate; the other slots keep going. A real server on the loopback, the run in this process: one clock for both.
const dir = tempDir('answer-eval-retry-after-');
const servers: SpecServer[] = [];
afterAll(() => Promise.all(servers.map((s) => s.close())));
const textOf = (body: Record<string, unknown>): string => (body['question'] as { text: string }).text;
const dataset = (name: string, count: number): string =>
  writeTemp(dir, name, `id,question,expected_sequence\n${Array.from({ length: count }, (_, n) => `q${n},question ${n},1`).join('\n')}\n`);

async function run(script: Script, count: number, over: { pauseOn429?: boolean; concurrency?: number } = {}) {
  const server = await startSpecServer(script);
  servers.push(server);
  const events: { at: number; event: RunEvent }[] = [];
  const { report } = await runEvaluation({
    dataset: dataset(`${count}.csv`, count), baseUrl: server.url, agent: 'a', agentCode: 'code-1234', concurrency: over.concurrency ?? 4,
    retries: 3, backoff: { baseMs: 1, capMs: 5 }, ...(over.pauseOn429 !== undefined ? { pauseOn429: over.pauseOn429 } : {}),
    onEvent: (event) => events.push({ at: performance.now(), event }),
  });
  return { server, report, events };
}

/**
 * Answers question 150's first attempt with a 429 (Retry-After: `seconds`), every other request after 10 ms: the run
 * is well under way by then (its rate sent is what the cut starts from).
 */
const oneThrottled = (seconds = 1): Script => {
  let first = true;
  return (req) => {
    if (textOf(req.body) === 'question 150' && first) {
      first = false;
      return { status: 429, headers: { 'retry-after': String(seconds) }, body: { error: 'slow down' } };
    }
    return { body: { answers: [item(1, 80)] }, delayMs: 10 };
  };
};

describe('a 429 with Retry-After', () => {
  it('delays the retried request by its Retry-After at least; the other slots keep asking meanwhile', async () => {
    const { server, report, events } = await run(oneThrottled(), 400);
    expect(report.summary.outcomes.error).toBe(0);
    expect(report.results[150]).toMatchObject({ id: 'q150', outcome: 'correct', attempts: 2 });
    const asked = server.received.map((r, i) => ({ text: textOf(r.body), at: r.at, i }));
    const [throttled, retried] = asked.filter((r) => r.text === 'question 150');
    const answered429 = server.replied.find((r) => r.status === 429)!.at;
    // never earlier than it says: a second after the 429 left the server
    expect(retried!.at - answered429).toBeGreaterThanOrEqual(1000);
    // the other slots went on: many questions were asked in that second, not a pause
    const meanwhile = asked.filter((r) => r.at > answered429 + 50 && r.at < answered429 + 950);
    expect(meanwhile.length).toBeGreaterThan(50);
    expect(events.map((e) => e.event.type)).not.toContain('pause');
    expect(events.find((e) => e.event.type === 'retry')!.event).toMatchObject({ id: 'q150', reason: 'http 429', waitMs: 1000 });
    expect(throttled!.i).toBeLessThan(retried!.i);
  });

  it('lowers the rate while 429s come, and lifts the limit once they stop', async () => {
    // once the run is under way, every 10th of 60 questions gets a 429 (Retry-After: 0.2) at its first attempt; at most
    // 200 questions/s (2 slots, 10 ms), the 540 after them take 2.7 s or more, longer than any climb back (2 s)
    const attempts = new Map<string, number>();
    const { report, events } = await run((req) => {
      const text = textOf(req.body);
      const n = Number(text.slice('question '.length));
      const attempt = (attempts.get(text) ?? 0) + 1;
      attempts.set(text, attempt);
      if (n >= 100 && n < 160 && n % 10 === 0 && attempt === 1) return { status: 429, headers: { 'retry-after': '0.2' }, body: {} };
      return { body: { answers: [item(1, 80)] }, delayMs: 10 };
    }, 700, { concurrency: 2 });
    expect(report.summary.outcomes.error).toBe(0);
    const rates = events.flatMap((e) => (e.event.type === 'rate' ? [e.event.rps] : []));
    expect(rates.length).toBeGreaterThan(1);
    expect(rates[0]).toBeGreaterThan(0); // a limit: the rate fell
    expect(rates.at(-1)).toBeNull(); // and came back: the limit lifted before the run ended
    expect(events.map((e) => e.event.type)).not.toContain('pause');
  });

  it('--pause-on-429: pauses every request for the Retry-After, as before', async () => {
    const { server, report, events } = await run(oneThrottled(0.5), 400, { pauseOn429: true });
    expect(report.summary.outcomes.error).toBe(0);
    const answered429 = server.replied.find((r) => r.status === 429)!.at;
    // from the moment the 429 left the server, nothing new for its half second (a request already on the wire may land a little after)
    expect(server.received.filter((r) => r.at > answered429 + 150 && r.at < answered429 + 450)).toEqual([]);
    expect(events.find((e) => e.event.type === 'pause')!.event).toMatchObject({ type: 'pause', waitMs: 500 });
  });
});
