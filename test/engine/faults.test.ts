import { afterEach, describe, expect, it } from 'vitest';
import { SAMPLE_KB, loadKnowledgeBase, parseLatency, startEngine, type FaultOptions, type RunningEngine } from '../../src/engine/index.js';
import { createFaultPlanner, mulberry32 } from '../../src/engine/faults.js';
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

/** Sends n requests, 20 at a time, and classifies what came back. */
async function outcomes(e: RunningEngine, n: number): Promise<Outcome[]> {
  const results: Outcome[] = [];
  for (let i = 0; i < n; i += 20) {
    const batch = Array.from({ length: Math.min(20, n - i) }, async (): Promise<Outcome> => {
      try {
        const res = await ask(e, specBody('demo'));
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
    const all = await outcomes(await start({ errorRate: 0.2, malformedRate: 0.1, resetRate: 0.1 }), 200);
    // 200 draws: a tolerance of about 3 standard deviations
    expect(Math.abs(share(all, (o) => o === 500 || o === 502 || o === 503) - 0.2)).toBeLessThan(0.085);
    expect(Math.abs(share(all, (o) => o === 'malformed') - 0.1)).toBeLessThan(0.065);
    expect(Math.abs(share(all, (o) => o === 'reset') - 0.1)).toBeLessThan(0.065);
    expect(new Set(all.filter((o) => typeof o === 'number' && o >= 500)).size).toBe(3);
    expect(Math.abs(share(all, (o) => o === 200) - 0.6)).toBeLessThan(0.1);
    // the planner itself, over many draws
    const next = createFaultPlanner({ errorRate: 0.2, malformedRate: 0.1, resetRate: 0.1 }, 11);
    const kinds = Array.from({ length: 20_000 }, () => next().fault.kind);
    expect(kinds.filter((k) => k === 'error').length / 20_000).toBeCloseTo(0.2, 1);
    expect(kinds.filter((k) => k === 'reset').length / 20_000).toBeCloseTo(0.1, 1);
  });

  it('repeats with the same seed', () => {
    const plan = (seed: number) => {
      const next = createFaultPlanner({ errorRate: 0.3, resetRate: 0.3, latency: { median: 10, p99: 50 } }, seed);
      return Array.from({ length: 50 }, () => next());
    };
    expect(plan(3)).toEqual(plan(3));
    expect(plan(3)).not.toEqual(plan(4));
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

  it('adds fixed latency and log-normal latency with about the given median', async () => {
    const e = await start({ latency: { median: 40 } });
    let t = performance.now();
    await ask(e, specBody('demo'));
    expect(performance.now() - t).toBeGreaterThanOrEqual(38);

    const next = createFaultPlanner({ latency: { median: 20, p99: 100 } }, 5);
    const delays = Array.from({ length: 2000 }, () => next().delayMs).sort((a, b) => a - b);
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
    // on a shared machine add queueing, so only check that the delays are there and not absurd
    expect(times[15]).toBeGreaterThan(20);
    expect(times[15]).toBeLessThan(150);
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
