import { afterEach, describe, expect, it, vi } from 'vitest';
import { SAMPLE_KB, loadKnowledgeBase, parseLatency, startEngine, type FaultOptions, type RunningEngine } from '../../src/engine/index.js';
import { createFaultPlanner, fnv1a32, MAX_PLANNED_KEYS, mulberry32, type FaultPlan } from '../../src/engine/faults.js';
import { ConfigError } from '../../src/errors.js';
import { ask, specBody } from './helpers.js';

const kb = await loadKnowledgeBase(SAMPLE_KB);
let engine: RunningEngine | undefined;
afterEach(async () => {
  await engine?.close();
  engine = undefined;
});

const start = async (faults: FaultOptions, seed = 7): Promise<RunningEngine> => {
  engine = await startEngine({ kb, faults, seed, agent: 'demo' });
  return engine;
};

type Outcome = number | 'reset' | 'malformed';

/** Sends n requests with distinct questions (`question ${i}`), 20 at a time, and classifies what came back. */
async function outcomes(e: RunningEngine, n: number): Promise<Outcome[]> {
  const results: Outcome[] = [];
  for (let i = 0; i < n; i += 20) {
    const batch = Array.from({ length: Math.min(20, n - i) }, async (_, j): Promise<Outcome> => {
      try {
        const res = await ask(e, specBody('demo', `question ${i + j}`));
        const text = await res.text();
        if (res.status !== 200) return res.status;
        try {
          JSON.parse(text);
          return 200;
        } catch {
          return 'malformed';
        }
      } catch {
        return 'reset';
      }
    });
    results.push(...(await Promise.all(batch)));
  }
  return results;
}

const share = (all: Outcome[], test: (o: Outcome) => boolean): number => all.filter(test).length / all.length;

describe('fault injection', () => {
  it('is off by default', async () => {
    const all = await outcomes(await start({}), 40);
    expect(all.every((o) => o === 200)).toBe(true);
  });

  it('gives 5xx, malformed bodies and resets at the configured rates', async () => {
    const e = await start({ errorRate: 0.2, malformedRate: 0.1, resetRate: 0.1 });
    const all = await outcomes(e, 200);
    // the counters: every request, every injected fault
    expect(e.stats()).toEqual({
      requests: 200,
      faults: {
        error: all.filter((o) => typeof o === 'number' && o >= 500).length,
        malformed: all.filter((o) => o === 'malformed').length,
        reset: all.filter((o) => o === 'reset').length,
        throttle: 0,
        oversize: 0,
      },
    });
    // 200 draws: a tolerance of about 3 standard deviations
    expect(Math.abs(share(all, (o) => o === 500 || o === 502 || o === 503) - 0.2)).toBeLessThan(0.085);
    expect(Math.abs(share(all, (o) => o === 'malformed') - 0.1)).toBeLessThan(0.065);
    expect(Math.abs(share(all, (o) => o === 'reset') - 0.1)).toBeLessThan(0.065);
    expect(new Set(all.filter((o) => typeof o === 'number' && o >= 500)).size).toBe(3);
    expect(Math.abs(share(all, (o) => o === 200) - 0.6)).toBeLessThan(0.1);
    // the planner itself, over many draws
    const plan = createFaultPlanner({ errorRate: 0.2, malformedRate: 0.1, resetRate: 0.1 }, 11);
    const kinds = Array.from({ length: 20_000 }, (_, i) => plan(`q${i}`).fault.kind);
    expect(kinds.filter((k) => k === 'error').length / 20_000).toBeCloseTo(0.2, 1);
    expect(kinds.filter((k) => k === 'reset').length / 20_000).toBeCloseTo(0.1, 1);
  });

  it('repeats with the same seed', () => {
    const plan = (seed: number) => {
      const next = createFaultPlanner({ errorRate: 0.3, resetRate: 0.3, latency: { median: 10, p99: 50 } }, seed);
      return Array.from({ length: 50 }, (_, i) => next(`q${i}`));
    };
    expect(plan(3)).toEqual(plan(3));
    expect(plan(3)).not.toEqual(plan(4));
  });

  it('decides per question and attempt, whatever the order of arrival', () => {
    const options: FaultOptions = { errorRate: 0.2, resetRate: 0.1, throttleRate: 0.1, latency: { median: 10, p99: 50 } };
    const keys = Array.from({ length: 200 }, (_, i) => `question ${i}`);
    // three attempts of every question, in order ...
    const inOrder = createFaultPlanner(options, 9);
    const expected = new Map(keys.map((k) => [k, [inOrder(k), inOrder(k), inOrder(k)]]));
    // ... and interleaved in a shuffled order, as concurrent requests arrive
    const random = mulberry32(5);
    const arrivals = keys.flatMap((k) => [k, k, k]).map((k) => ({ k, r: random() })).sort((a, b) => a.r - b.r).map((a) => a.k);
    const shuffled = createFaultPlanner(options, 9);
    const got = new Map<string, FaultPlan[]>();
    for (const k of arrivals) got.set(k, [...(got.get(k) ?? []), shuffled(k)]);
    expect(got).toEqual(expected);
    // the n-th request of a question draws from seed, n and the text
    for (const k of keys.slice(0, 20)) {
      expected.get(k)!.forEach((p, n) => {
        const draw = mulberry32(fnv1a32(`9\u0000${n}\u0000${k}`))();
        expect(p.fault.kind).toBe(draw < 0.2 ? 'error' : draw < 0.3 ? 'reset' : draw < 0.4 ? 'throttle' : 'none');
      });
    }
    // attempts of one question differ; so do seeds
    const attempts = keys.map((k) => expected.get(k)!.map((p) => p.delayMs));
    expect(attempts.filter(([a, b]) => a === b)).toHaveLength(0);
    const other = createFaultPlanner(options, 10);
    expect(keys.map((k) => other(k))).not.toEqual(keys.map((k) => expected.get(k)![0]));
    // adding latency does not move the faults
    const noLatency = createFaultPlanner({ ...options, latency: undefined }, 9);
    expect(keys.map((k) => noLatency(k).fault)).toEqual(keys.map((k) => expected.get(k)![0]!.fault));
  });

  it('bounds its per-question counter', () => {
    const plan = createFaultPlanner({ errorRate: 0.5 }, 2);
    const fresh = createFaultPlanner({ errorRate: 0.5 }, 2);
    const firstA = plan('a');
    expect(plan('a')).toEqual((fresh('a'), fresh('a'))); // the second request of "a"
    for (let i = 1; i < MAX_PLANNED_KEYS; i++) plan(`k${i}`); // "a" and 99,999 others: full
    expect(plan('a')).toEqual(fresh('a')); // a known key still counts on: the third request of "a"
    plan('one more'); // a new key beyond the bound: the counter is cleared
    expect(plan('a')).toEqual(firstA); // "a" starts over
  });

  it('gives 429 with Retry-After', async () => {
    const e = await start({ throttleRate: 1, retryAfter: 2 });
    const res = await ask(e, specBody('demo'));
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('2');
  });

  it('gives a valid JSON body of several MiB', async () => {
    const e = await start({ oversizeRate: 1 });
    const res = await ask(e, specBody('demo'));
    const text = await res.text();
    expect(res.status).toBe(200);
    expect(text.length).toBeGreaterThan(4 * 1024 * 1024);
    expect(() => JSON.parse(text)).not.toThrow();
  });

  it('under latency, a reply is the same bytes in every output, made during the wait for a guest and after it for a user', async () => {
    const replies = async (e: RunningEngine): Promise<string[]> => {
      const out: string[] = [];
      for (const output of ['json', 'xml', 'html', 'text']) {
        for (const user of [undefined, 'u1']) {
          const { username: _, ...base } = specBody('demo', 'how can I pay my bill?');
          const res = await ask(e, { ...base, output, ...(user ? { username: user } : {}) });
          out.push(`${res.status} ${res.headers.get('content-type')} ${await res.text()}`);
        }
      }
      return out;
    };
    const plain = await replies(await start({}));
    await engine!.close();
    expect(await replies(await start({ latency: { median: 5 } }))).toEqual(plain);
  });

  it('adds fixed latency and log-normal latency with about the given median', async () => {
    const e = await start({ latency: { median: 40 } });
    let t = performance.now();
    await ask(e, specBody('demo'));
    expect(performance.now() - t).toBeGreaterThanOrEqual(38);

    const next = createFaultPlanner({ latency: { median: 20, p99: 100 } }, 5);
    const delays = Array.from({ length: 2000 }, (_, i) => next(`q${i}`).delayMs).sort((a, b) => a - b);
    expect(delays[1000]).toBeGreaterThan(17);
    expect(delays[1000]).toBeLessThan(23);
    expect(delays[1980]).toBeGreaterThan(75);
    expect(delays[1980]).toBeLessThan(130);

    await e.close();
    const lognormal = await start({ latency: { median: 30, p99: 90 } });
    t = performance.now();
    const times = await Promise.all(
      Array.from({ length: 30 }, async () => {
        const s = performance.now();
        await ask(lognormal, specBody('demo'));
        return performance.now() - s;
      }),
    );
    times.sort((a, b) => a - b);
    // the distribution is checked exactly on the planner above; over HTTP, 30 concurrent requests
    // on a shared machine add queueing (a median of 155 ms seen under load), so only check that the delays are there
    // and not absurd (seconds, not milliseconds)
    expect(times[15]).toBeGreaterThan(20);
    expect(times[15]).toBeLessThan(400);
  });

  it('ends a delay when the client goes: nothing injected, nothing counted, close does not wait', async () => {
    const e = await start({ latency: { median: 20_000 }, errorRate: 1 });
    const gone = new AbortController();
    const asked = fetch(`${e.url}/api/v1/answer`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', wikiclone_code: e.code },
      body: JSON.stringify(specBody('demo')),
      signal: gone.signal,
    });
    // the client goes once the engine holds its request (on a loaded machine a fixed 100 ms may come first)
    await vi.waitFor(() => expect(e.stats().requests).toBe(1), { timeout: 5_000, interval: 20 });
    gone.abort();
    await expect(asked).rejects.toThrow();
    const t = performance.now();
    await e.close();
    engine = undefined;
    expect(performance.now() - t).toBeLessThan(1000);
    // closed: the engine has seen the client go and ended the delay, and counted nothing more
    expect(e.stats()).toEqual({ requests: 1, faults: { error: 0, malformed: 0, reset: 0, throttle: 0, oversize: 0 } });
  });

  it('checks its options', () => {
    expect(parseLatency('50')).toEqual({ median: 50 });
    expect(parseLatency('50,200')).toEqual({ median: 50, p99: 200 });
    expect(() => parseLatency('200,50')).toThrow(ConfigError);
    expect(() => parseLatency('fast')).toThrow(ConfigError);
    expect(() => createFaultPlanner({ errorRate: 0.7, resetRate: 0.5 })).toThrow(/add up to 1.200/);
    expect(() => createFaultPlanner({ errorRate: 2 })).toThrow(ConfigError);
    const random = mulberry32(1);
    expect(random()).toBe(mulberry32(1)());
  });
});
