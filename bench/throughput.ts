// (a) answer-eval vs autocannon against the same zero-latency spec server, same request, concurrency 64.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { runProcess, startChild } from './lib/proc.js';
import { readReportHead } from './lib/package.js';
import { writeQuestions } from './lib/data.js';
import { AGENT_CODE, CLI, UNDICI_LOOP, ZERO_SERVER } from './paths.js';

const CONCURRENCY = 64;
/** Enough for several seconds at answer-eval's rate here. */
const QUESTIONS = 60_000;
const autocannonBin = createRequire(import.meta.url).resolve('autocannon/autocannon.js');
const body = JSON.stringify({ wikiagent: 'bench', guest: '1', question: { text: 'How do I pay my bill? (1)' }, force_subscription: '0', output: 'json', language: 'en' });

export interface ThroughputResult {
  autocannonRps: number;
  answerEvalQps: number;
  ratio: number;
  /** The bare undici loop answer-eval is built on: how much of the gap is the HTTP client's. */
  undiciRps: number;
  undiciRatio: number;
  /** answer-eval against that bare loop: the harness's own overhead (target at least 0.6). */
  ofUndici: number;
}

async function undiciLoop(url: string, seconds: number): Promise<number> {
  const res = await runProcess(process.execPath, [UNDICI_LOOP, `${url}/api/v1/answer`, String(CONCURRENCY), String(seconds), body, AGENT_CODE]);
  if (res.code !== 0) throw new Error(`undici loop failed (${res.code}): ${res.stderr}`);
  return Number(res.stdout.trim());
}

async function autocannon(url: string, seconds: number): Promise<number> {
  const res = await runProcess(process.execPath, [autocannonBin, '-c', String(CONCURRENCY), '-d', String(seconds), '-m', 'POST', '-H', 'content-type=application/json; charset=UTF-8', '-H', `wikiclone_code=${AGENT_CODE}`, '-b', body, '-j', `${url}/api/v1/answer`]);
  const json = JSON.parse(res.stdout) as { requests: { total: number }; duration: number; non2xx: number };
  if (json.non2xx > 0) throw new Error(`autocannon saw ${json.non2xx} non-2xx answers`);
  return json.requests.total / json.duration;
}

async function answerEval(url: string, dataset: string, out: string): Promise<number> {
  const res = await runProcess(process.execPath, [CLI, 'run', '-d', dataset, '--base-url', url, '--agent', 'bench', '-c', String(CONCURRENCY), '--format', 'json', '-o', out], { env: { ANSWER_AGENT_CODE: AGENT_CODE } });
  if (res.code !== 0) throw new Error(`answer-eval run failed (${res.code}): ${res.stderr}`);
  const report = await readReportHead(join(out, 'report.json'));
  if (report.summary.outcomes.error > 0) throw new Error(`answer-eval saw ${report.summary.outcomes.error} errors`);
  return report.summary.total / (report.run.durationMs / 1000);
}

/** Three alternating rounds of each (the machine is shared: one round can fall on a busy moment); the best of each side is compared. */
export async function benchThroughput(tmp: string, seconds = 8): Promise<ThroughputResult> {
  const server = await startChild(process.execPath, [ZERO_SERVER]);
  const url = `http://127.0.0.1:${server.port}`;
  try {
    await autocannon(url, 2); // warm-up
    const ac: number[] = [];
    const ae: number[] = [];
    const un: number[] = [];
    for (let round = 0; round < 3; round++) {
      ac.push(await autocannon(url, seconds));
      un.push(await undiciLoop(url, seconds));
      const dataset = writeQuestions(tmp, QUESTIONS);
      ae.push(await answerEval(url, dataset, join(tmp, `throughput-${round}`)));
    }
    const autocannonRps = Math.max(...ac);
    const answerEvalQps = Math.max(...ae);
    const undiciRps = Math.max(...un);
    return { autocannonRps, answerEvalQps, ratio: answerEvalQps / autocannonRps, undiciRps, undiciRatio: undiciRps / autocannonRps, ofUndici: answerEvalQps / undiciRps };
  } finally {
    await server.stop();
  }
}
