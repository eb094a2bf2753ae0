// (g) `answer-eval trend` over 30 nightly runs of 100k questions: time and peak RSS of the whole process. The runs
// are generated here as report.json files (no requests): deterministic outcomes per (question, night), with some
// questions flaky, some breaking on a given night, and a service change on night 20.
import { rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { QuestionResult, ReportAnswer } from '../dist/index.js';
import type { ResultSource } from '../dist/model/source.js';
import { runProcess } from './lib/proc.js';
import { SCHEMA_VERSION, scoreResults, writeReports } from './lib/package.js';
import { CLI } from './paths.js';

export interface TrendResult {
  runs: number;
  questions: number;
  /** Size of all report.json files read. */
  inputMb: number;
  seconds: number;
  peakRssMb: number;
  /** The same over the first 10 runs: memory grows with questions, not with runs. */
  tenRuns: { seconds: number; peakRssMb: number };
  flaky: number;
  failing: number;
}

const answer = (seq: number, score: number): ReportAnswer => ({
  answer: `Answer ${seq}: see the help page, section ${seq % 97}.`,
  sequence_number: seq,
  answer_score: score,
  tags: ['bench'],
  label: `entry-${seq}`,
  category: `cat-${seq % 12}`,
  is_agent_answer: true,
  is_dummy_answer: false,
  is_dummy_floor_answer: false,
  is_suggestion_answer: false,
  is_international_question: false,
  is_dialog_in_progress: false,
  is_dialogue_answer: false,
  delay: -1,
});

/** Question i on night k: right unless it is one of the always-wrong, flaky (odd nights) or broken-from-night-k ones. */
function result(i: number, k: number): QuestionResult {
  const expected = (i % 400) + 1;
  const right = !(i % 13 === 0 || (i % 101 === 0 && k % 2 === 1) || (i % 37 === 0 && k >= 25));
  const top = right ? expected : expected + 1;
  const answers = [answer(top, 60 + (i % 30)), answer(top + 7, 40 + (i % 10))];
  return {
    id: `q${i}`,
    line: i + 2,
    question: `How do I ${['pay my bill', 'read my meter', 'move house', 'change my tariff'][i % 4]} (${i})?`,
    language: 'en',
    tags: ['bench'],
    expected: { expect: 'answer', sequence: [String(expected)] },
    outcome: right ? 'correct' : 'wrong',
    ...(right ? {} : { reason: `expected sequence ${expected}; top-1 is #${top} "entry-${top}"` }),
    top1Index: 0,
    answers,
    unordered: false,
    latencyMs: 20 + ((i * 7 + k) % 50),
    attempts: 1,
    error: null,
    rank: right ? 1 : null,
    margin: answers[0]!.answer_score - answers[1]!.answer_score,
  };
}

async function writeRuns(root: string, runs: number, questions: number): Promise<number> {
  let bytes = 0;
  for (let k = 0; k < runs; k++) {
    const results: ResultSource = { count: questions, *[Symbol.iterator]() { for (let i = 0; i < questions; i++) yield result(i, k); } };
    const head = {
      schemaVersion: SCHEMA_VERSION,
      tool: { name: 'answer-eval', version: '0.1.0' },
      run: {
        startedAt: new Date(Date.UTC(2026, 0, 1 + k, 2)).toISOString(),
        finishedAt: new Date(Date.UTC(2026, 0, 1 + k, 3)).toISOString(),
        durationMs: 3_600_000,
        status: 'completed' as const,
        baseUrl: k < 20 ? 'https://answers.example.test' : 'https://answers-v2.example.test',
        embeddedEngine: false,
        agent: 'bench',
        dataset: { path: 'bench.csv', sha256: 'ab'.repeat(32), questions },
        options: { concurrency: 16, timeoutMs: 30_000, retries: 2, language: 'en', output: 'json', guest: true, forceSubscription: false },
      },
      ...scoreResults(results),
    };
    const [written] = await writeReports({ head, results }, join(root, `night-${String(k).padStart(2, '0')}`), ['json']);
    bytes += statSync(written!).size;
  }
  return bytes;
}

async function trendOnce(dirs: string[], out: string): Promise<{ seconds: number; peakRssMb: number; stdout: string }> {
  const started = performance.now();
  const res = await runProcess(process.execPath, [CLI, 'trend', ...dirs, '-o', out], { measureRss: true, timeoutMs: 3_600_000 });
  if (res.code !== 0 || res.peakRssMb === undefined) throw new Error(`trend failed (${res.code}): ${res.stderr.slice(0, 500)}`);
  return { seconds: (performance.now() - started) / 1000, peakRssMb: res.peakRssMb, stdout: res.stdout };
}

export async function benchTrend(tmp: string, runs = 30, questions = 100_000): Promise<TrendResult> {
  const root = join(tmp, 'trend-runs');
  try {
    const bytes = await writeRuns(root, runs, questions);
    const dirs = Array.from({ length: runs }, (_, k) => join(root, `night-${String(k).padStart(2, '0')}`));
    const ten = await trendOnce(dirs.slice(0, 10), join(tmp, 'trend-10'));
    const all = await trendOnce([root], join(tmp, 'trend-all'));
    const m = /latest run: (\d+) failing \(\d+ new\), (\d+) flaky/.exec(all.stdout);
    return {
      runs,
      questions,
      inputMb: bytes / 1024 / 1024,
      seconds: all.seconds,
      peakRssMb: all.peakRssMb,
      tenRuns: { seconds: ten.seconds, peakRssMb: ten.peakRssMb },
      failing: Number(m?.[1]),
      flaky: Number(m?.[2]),
    };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
