// (a) answer-eval vs autocannon against the same zero-latency spec server, same request, concurrency 64.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { runProcess, startChild } from './lib/proc.js';
import { PEER_BODY, undiciLoop } from './lib/undici-loop.js';
import { median, readReportHead } from './lib/package.js';
import { writeQuestions } from './lib/data.js';
import { AGENT_CODE, CLI, ZERO_SERVER } from './paths.js';

const CONCURRENCY = 64;
/** Enough for several seconds at answer-eval's rate here. */
const QUESTIONS = 60_000;
const autocannonBin = createRequire(import.meta.url).resolve('autocannon/autocannon.js');

export interface ThroughputResult {
  autocannonRps: number;
  answerEvalQps: number;
  ratio: number;
  /** The bare undici loop answer-eval is built on: how much of the gap is the HTTP client's. */
  undiciRps: number;
  undiciRatio: number;
  /** answer-eval against that bare loop: the harness's own overhead (target at least 0.6). */
  ofUndici: number;
  /** ofUndici of each round, in the order measured: the spread the machine gave. */
  ofUndiciRounds: number[];
}

async function autocannon(url: string, seconds: number): Promise<number> {
  const res = await runProcess(process.execPath, [autocannonBin, '-c', String(CONCURRENCY), '-d', String(seconds), '-m', 'POST', '-H', 'content-type=application/json; charset=UTF-8', '-H', `wikiclone_code=${AGENT_CODE}`, '-b', PEER_BODY, '-j', `${url}/api/v1/answer`]);
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

/**
 * Five rounds, each measuring autocannon, the undici loop and answer-eval one after the other. The machine is shared and
 * its speed drifts within minutes (the same peer moved between 12k and 17k req/s in one afternoon): each ratio is taken
 * within its round, where all three met the same machine, and the figure is the median round's.
 */
export async function benchThroughput(tmp: string, seconds = 8, rounds = 5): Promise<ThroughputResult> {
  const server = await startChild(process.execPath, [ZERO_SERVER]);
  const url = `http://127.0.0.1:${server.port}`;
  try {
    await autocannon(url, 2); // warm-up
    const dataset = writeQuestions(tmp, QUESTIONS);
    const measured: { ac: number; un: number; ae: number }[] = [];
    for (let round = 0; round < rounds; round++) {
      const ac = await autocannon(url, seconds);
      const un = await undiciLoop(url, CONCURRENCY, seconds);
      const ae = await answerEval(url, dataset, join(tmp, `throughput-${round}`));
      measured.push({ ac, un, ae });
    }
    const ofUndiciRounds = measured.map((m) => m.ae / m.un);
    return {
      autocannonRps: median(measured.map((m) => m.ac)),
      answerEvalQps: median(measured.map((m) => m.ae)),
      ratio: median(measured.map((m) => m.ae / m.ac)),
      undiciRps: median(measured.map((m) => m.un)),
      undiciRatio: median(measured.map((m) => m.un / m.ac)),
      ofUndici: median(ofUndiciRounds),
      ofUndiciRounds,
    };
  } finally {
    await server.stop();
  }
}
