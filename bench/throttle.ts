// (h) Polite but not timid: throughput when 0.5% of replies are a 429, against the same run without.
// The embedded engine runs in its own process at a fixed latency; answer-eval runs the same dataset four times: no
// 429s; 429s with the engine's default Retry-After of 1 s (the headline); 429s with Retry-After 0.05 s; and 429s with
// Retry-After 1 s under --pause-on-429.
//
// By default a 429 delays its own retry by the Retry-After and cuts the rate (AIMD); the other requests go on. At r
// questions/s, 0.5% of them a 429, about r * 0.005 * T slots at a time wait out a Retry-After of T seconds instead of
// asking: a run of c slots keeps about 1 - r * 0.005 * T / c (0.94 at 400/s, c = 32, T = 1 s), less the cuts.
// Under --pause-on-429 every 429 pauses the whole run for its Retry-After (the old default): the pauses alone take
// r * 0.005 * T of every second of asking, so the run keeps about 1 / (1 + r * 0.005 * T) (0.33 at 400/s and T = 1 s;
// a little more: requests in flight still finish during a pause).
// The run is paced at 400/s (32 at a time, 80 ms), the rate of the nightly run issue 12 saw fall to 26/s.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { writeQuestions } from './lib/data.js';
import { readReportHead } from './lib/package.js';
import { runProcess, startChild } from './lib/proc.js';
import { AGENT_CODE, CLI, ROOT } from './paths.js';

const CONCURRENCY = 32;
const LATENCY_MS = 80;
const SHORT_RETRY_AFTER_S = 0.05;
const THROTTLE_RATE = 0.005;

export interface ThrottleResult {
  freeQps: number;
  /** 0.5% 429s with Retry-After 1 s (the engine's default): the headline. */
  longQps: number;
  longRatio: number;
  /** 0.5% 429s with Retry-After 0.05 s. */
  shortQps: number;
  shortRatio: number;
  /** 0.5% 429s with Retry-After 1 s under --pause-on-429 (every 429 pauses the whole run). */
  pausedQps: number;
  pausedRatio: number;
  /** What the paused run's pauses alone leave, estimated: 1 / (1 + freeQps * 0.005 * 1). */
  pausedBound: number;
}

/** The embedded engine in a child process, with `faults` (FaultOptions); prints its port. */
function startEngine(faults: Record<string, unknown>) {
  const script = `
    const { startEngine, SAMPLE_KB } = await import(${JSON.stringify(pathToFileURL(join(ROOT, 'dist', 'engine', 'index.js')).href)});
    const engine = await startEngine({ kb: SAMPLE_KB, agent: 'bench', code: '${AGENT_CODE}', faults: ${JSON.stringify(faults)} });
    process.stdout.write(new URL(engine.url).port + '\\n');
    process.on('SIGTERM', () => engine.close().then(() => process.exit(0)));`;
  return startChild(process.execPath, ['--input-type=module', '-e', script]);
}

async function run(tmp: string, dataset: string, name: string, faults: Record<string, unknown>, flags: string[] = []): Promise<{ qps: number }> {
  const engine = await startEngine(faults);
  try {
    const out = join(tmp, `throttle-${name}`);
    const args = ['run', '-d', dataset, '--base-url', `http://127.0.0.1:${engine.port}`, '--agent', 'bench', '-c', String(CONCURRENCY), '--retries', '5', '--format', 'json', '-o', out, '--quiet', ...flags];
    const res = await runProcess(process.execPath, [CLI, ...args], { env: { ANSWER_AGENT_CODE: AGENT_CODE } });
    if (res.code !== 0) throw new Error(`answer-eval run failed (${res.code}): ${res.stderr}`);
    const report = await readReportHead(join(out, 'report.json'));
    if (report.summary.outcomes.error > 0) throw new Error(`${report.summary.outcomes.error} errors in the ${name} run`);
    return { qps: report.summary.total / (report.run.durationMs / 1000) };
  } finally {
    await engine.stop();
  }
}

/** Four runs of the same dataset, sized for about `seconds` each without 429s. */
export async function benchThrottle(tmp: string, seconds = 8): Promise<ThrottleResult> {
  const ceiling = CONCURRENCY / (LATENCY_MS / 1000);
  const dataset = writeQuestions(tmp, Math.round(Math.min(ceiling, 800) * seconds));
  const base = { latency: { median: LATENCY_MS } };
  const throttled = (retryAfter: number) => ({ ...base, throttleRate: THROTTLE_RATE, retryAfter });
  const free = await run(tmp, dataset, 'free', base);
  const long = await run(tmp, dataset, 'long', throttled(1));
  const short = await run(tmp, dataset, 'short', throttled(SHORT_RETRY_AFTER_S));
  const paused = await run(tmp, dataset, 'paused', throttled(1), ['--pause-on-429']);
  return {
    freeQps: free.qps,
    longQps: long.qps,
    longRatio: long.qps / free.qps,
    shortQps: short.qps,
    shortRatio: short.qps / free.qps,
    pausedQps: paused.qps,
    pausedRatio: paused.qps / free.qps,
    pausedBound: 1 / (1 + free.qps * THROTTLE_RATE * 1),
  };
}
