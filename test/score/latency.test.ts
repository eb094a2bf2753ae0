import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ReportSchema } from '../../src/model/report.js';
import { LatencyRecorder } from '../../src/score/latency.js';
import { runCli } from '../helpers/cli.js';
import { item, startSpecServer } from '../helpers/spec-server.js';
import { tempDir, writeTemp } from '../helpers/tmp.js';

// Issue 40: a p99 above max (134 ms, max 133.82 ms: the HDR bucket's upper edge) is a figure no one can believe.
// Every percentile is checked against an independent computation: nearest rank on the values sorted.
const nearestRank = (sorted: readonly number[], p: number): number => sorted[Math.max(1, Math.ceil((p / 100) * sorted.length)) - 1]!;

function recorded(values: readonly number[]) {
  const r = new LatencyRecorder();
  for (const v of values) r.record(v);
  return r.result();
}

/** A seeded generator (mulberry32), so a failure can be replayed. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('latency percentiles', () => {
  it('the case of the issue: one value of 133.82 ms is p50, p90, p99 and max alike', () => {
    expect(recorded([133.82])).toEqual({ p50: 133.82, p90: 133.82, p99: 133.82, max: 133.82 });
  });

  it('are never outside [min, max], are ordered, and within 0.1% of the exact nearest-rank figure', () => {
    const next = random(7);
    for (let trial = 0; trial < 200; trial++) {
      const n = 1 + Math.floor(next() * 400);
      // log-normal latencies from 0.05 ms to minutes, rounded to the microsecond the recorder keeps
      const values = Array.from({ length: n }, () => Math.round(Math.exp(next() * 14 - 3) * 1000) / 1000);
      const sorted = [...values].sort((a, b) => a - b);
      const got = recorded(values);
      expect(got.max).toBe(sorted.at(-1));
      for (const [p, key] of [[50, 'p50'], [90, 'p90'], [99, 'p99']] as const) {
        const exact = nearestRank(sorted, p);
        const value = got[key]!;
        expect(value).toBeGreaterThanOrEqual(sorted[0]!);
        expect(value).toBeLessThanOrEqual(sorted.at(-1)!);
        expect(Math.abs(value - exact), `p${p} of ${n} values: ${value} vs ${exact}`).toBeLessThanOrEqual(exact * 0.001 + 0.001);
      }
      expect(got.p50!).toBeLessThanOrEqual(got.p90!);
      expect(got.p90!).toBeLessThanOrEqual(got.p99!);
      expect(got.p99!).toBeLessThanOrEqual(got.max!);
    }
  });

  it('nothing recorded: no figure', () => {
    expect(recorded([])).toEqual({ p50: null, p90: null, p99: null, max: null });
  });
});

describe('latency of a run against a service whose delays are known', () => {
  const dir = tempDir();
  const delays = [5, 8, 12, 20, 30, 45, 60, 90, 120, 133];
  let server: Awaited<ReturnType<typeof startSpecServer>>;
  afterAll(() => server?.close());

  it('report.json: p50 <= p90 <= p99 <= max, each within the measured latencies; max the largest measured', async () => {
    server = await startSpecServer((r) => {
      const n = Number(/q(\d+)/.exec(JSON.stringify(r.body))?.[1] ?? 0);
      return { delayMs: delays[n % delays.length]!, body: { answers: [item(1, 80)] } };
    });
    const rows = Array.from({ length: 40 }, (_, i) => `q${i},question q${i},1`).join('\n');
    const dataset = writeTemp(dir, 'q.csv', `id,question,expected_sequence\n${rows}\n`);
    const res = await runCli(['run', '-d', dataset, '--base-url', server.url, '--agent', 'a', '-o', join(dir, 'out'), '--format', 'json', '-c', '4', '-q'], { ANSWER_AGENT_CODE: 'code-xyz-123' });
    expect(res.code, res.stderr).toBe(0);
    const report = ReportSchema.parse(JSON.parse(readFileSync(join(dir, 'out', 'report.json'), 'utf8')));
    const measured = report.results.map((r) => r.latencyMs!).sort((a, b) => a - b);
    const { p50, p90, p99, max } = report.summary.latencyMs;
    expect(max).toBe(measured.at(-1));
    expect(measured[0]).toBeGreaterThanOrEqual(5);
    for (const [p, value] of [[50, p50], [90, p90], [99, p99]] as const) {
      const exact = nearestRank(measured, p);
      expect(Math.abs(value! - exact), `p${p}`).toBeLessThanOrEqual(exact * 0.001 + 0.001);
    }
    expect(p50!).toBeLessThanOrEqual(p90!);
    expect(p90!).toBeLessThanOrEqual(p99!);
    expect(p99!).toBeLessThanOrEqual(max!);
  }, 30_000);
});
