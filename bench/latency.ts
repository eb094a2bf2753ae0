// (b) Efficiency under latency: the embedded engine at a fixed 50 ms, concurrency 64, against the
// Little's-law ceiling of 64 / 0.05 s = 1,280 questions/s. The bare undici loop against the same engine tells what
// the engine and the machine leave of that ceiling to any client.
import { join } from 'node:path';
import { writeQuestions } from './lib/data.js';
import { runProcess, startChild } from './lib/proc.js';
import { median, readReportHead } from './lib/package.js';
import { undiciLoop } from './lib/undici-loop.js';
import { AGENT_CODE, CLI } from './paths.js';

const CONCURRENCY = 64;
const LATENCY_S = 0.05;

export interface LatencyResult {
  ceilingQps: number;
  achievedQps: number;
  efficiency: number;
  /** The bare undici loop against the same engine, same concurrency (median round). */
  peerEfficiency: number;
  /** answer-eval's efficiency in each round. */
  rounds: number[];
  /** How long each run asked: the JIT warm-up of the first second or so weighs on a short run. */
  seconds: number;
}

/**
 * Three rounds of a nightly-sized run (30 s, 38,400 questions), each followed by the peer for as long; the figure is
 * the median round's. A short run measures the JIT's warm-up more than the harness: at 10 s the first 1.5 s of
 * slower replies took 2 points off.
 */
export async function benchLatency(tmp: string, seconds = 30, rounds = 3): Promise<LatencyResult> {
  const env = { ANSWER_AGENT_CODE: AGENT_CODE };
  const engine = await startChild(process.execPath, [CLI, 'serve', '--port', '0', '--latency', String(LATENCY_S * 1000), '--agent', 'bench'], env);
  try {
    const ceilingQps = CONCURRENCY / LATENCY_S;
    const dataset = writeQuestions(tmp, Math.round(ceilingQps * seconds));
    const url = `http://127.0.0.1:${engine.port}`;
    // the engine warmed up first, as (a)'s server is: else only answer-eval's first round meets its cold code (its
    // first replies 40-50 ms late), never the peer
    await undiciLoop(url, CONCURRENCY, 2);
    const achieved: number[] = [];
    const peer: number[] = [];
    for (let round = 0; round < rounds; round++) {
      const out = join(tmp, `latency-${round}`);
      const res = await runProcess(process.execPath, [CLI, 'run', '-d', dataset, '--base-url', url, '--agent', 'bench', '-c', String(CONCURRENCY), '--format', 'json', '-o', out], { env });
      if (res.code !== 0) throw new Error(`answer-eval run failed (${res.code}): ${res.stderr}`);
      const report = await readReportHead(join(out, 'report.json'));
      if (report.summary.outcomes.error > 0) throw new Error(`${report.summary.outcomes.error} errors in the latency run`);
      achieved.push(report.summary.total / (report.run.durationMs / 1000));
      peer.push(await undiciLoop(url, CONCURRENCY, seconds));
    }
    const achievedQps = median(achieved);
    return { ceilingQps, achievedQps, efficiency: achievedQps / ceilingQps, peerEfficiency: median(peer) / ceilingQps, rounds: achieved.map((q) => q / ceilingQps), seconds };
  } finally {
    await engine.stop();
  }
}
