// (b) Efficiency under latency: the embedded engine at a fixed 50 ms, concurrency 64, against the
// Little's-law ceiling of 64 / 0.05 s = 1,280 questions/s.
import { join } from 'node:path';
import { writeQuestions } from './lib/data.js';
import { runProcess, startChild } from './lib/proc.js';
import { readReportHead } from './lib/package.js';
import { AGENT_CODE, CLI } from './paths.js';

const CONCURRENCY = 64;
const LATENCY_S = 0.05;

export interface LatencyResult {
  ceilingQps: number;
  achievedQps: number;
  efficiency: number;
}

export async function benchLatency(tmp: string, seconds = 10): Promise<LatencyResult> {
  const env = { ANSWER_AGENT_CODE: AGENT_CODE };
  const engine = await startChild(process.execPath, [CLI, 'serve', '--port', '0', '--latency', String(LATENCY_S * 1000), '--agent', 'bench'], env);
  try {
    const ceilingQps = CONCURRENCY / LATENCY_S;
    const dataset = writeQuestions(tmp, Math.round(ceilingQps * seconds));
    const out = join(tmp, 'latency');
    const url = `http://127.0.0.1:${engine.port}`;
    const res = await runProcess(process.execPath, [CLI, 'run', '-d', dataset, '--base-url', url, '--agent', 'bench', '-c', String(CONCURRENCY), '--format', 'json', '-o', out], { env });
    if (res.code !== 0) throw new Error(`answer-eval run failed (${res.code}): ${res.stderr}`);
    const report = await readReportHead(join(out, 'report.json'));
    if (report.summary.outcomes.error > 0) throw new Error(`${report.summary.outcomes.error} errors in the latency run`);
    const achievedQps = report.summary.total / (report.run.durationMs / 1000);
    return { ceilingQps, achievedQps, efficiency: achievedQps / ceilingQps };
  } finally {
    await engine.stop();
  }
}
