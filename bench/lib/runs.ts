// Two runs of the same questions, generated as report.json files directly (no requests), for the compare
// benchmarks: HEAD breaks, fixes, reorders and moves the scores of some questions, fails a few requests, drops
// some questions, adds others and rewords a few, deterministically.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { QuestionResult, ReportAnswer } from '../../dist/index.js';
import type { ResultSource } from '../../dist/model/source.js';
import { SCHEMA_VERSION, scoreResults, writeReports } from './package.js';

const ENTRIES = 400;
const TOPICS = ['pay my bill', 'read my meter', 'move house', 'change my tariff', 'report a power cut', 'get a refund'];

const answer = (seq: number, score: number): ReportAnswer => ({
  answer: `Answer ${seq}: open your account, choose the service and follow the steps of section ${seq % 97}.`,
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

const other = (seq: number, k: number): number => ((seq + 7 * k - 1) % ENTRIES) + 1;

/** Question i of BASE (`head` false) or HEAD; HEAD's ids past n are added questions. HEAD moves the score of 1 in `driftEvery`. */
function result(i: number, head: boolean, driftEvery: number): QuestionResult {
  const expected = (i % ENTRIES) + 1;
  const baseRight = i % 13 !== 0;
  const broken = head && baseRight && i % 53 === 0;
  const fixed = head && !baseRight && i % 3 === 0;
  const reordered = head && !baseRight && !fixed && i % 7 === 0;
  const right = fixed || (baseRight && !broken);
  const error = head && i % 997 === 0;
  const top = right ? expected : reordered ? other(expected, 3) : other(expected, 1);
  const drift = head && i % driftEvery === 0 ? ((i % 11) - 5 || 1) * 0.7 : 0;
  const topScore = 60 + (i % 30) + drift;
  const answers = error ? [] : [answer(top, topScore), ...[2, 4, 5].map((k, j) => answer(other(expected, k), 50 - j * 8 - (i % 7)))];
  if (!right && !error && i % 2 === 0) answers[1] = answer(expected, 52 - (i % 7)); // the expected answer at rank 2
  const rank = error ? null : right ? 1 : answers[1]!.sequence_number === expected ? 2 : null;
  const reworded = head && i % 2000 === 1;
  return {
    id: `q${i}`,
    line: i + 2,
    question: `How do I ${TOPICS[i % TOPICS.length]} when I am away${reworded ? ' from home' : ''} (${i})?`,
    language: 'en',
    tags: [`topic-${i % TOPICS.length}`],
    expected: { expect: 'answer', sequence: [String(expected)] },
    outcome: error ? 'error' : right ? 'correct' : 'wrong',
    ...(right || error ? {} : { reason: `expected sequence ${expected}; top-1 is #${top} "entry-${top}"` }),
    top1Index: error ? null : 0,
    answers,
    unordered: false,
    latencyMs: error ? null : 20 + ((i * 7 + (head ? 3 : 0)) % 50),
    attempts: error ? 3 : 1,
    error: error ? { kind: 'http', message: 'HTTP 503', status: 503 } : null,
    rank,
    margin: answers.length > 1 ? answers[0]!.answer_score - answers[1]!.answer_score : null,
  };
}

/** HEAD drops 1 question in 1,000 and adds as many new ones at the end. */
const inHead = (i: number): boolean => i % 1000 !== 999;

async function writeRun(dir: string, n: number, head: boolean, driftEvery: number): Promise<string> {
  const added = head ? Math.floor(n / 1000) : 0;
  const count = head ? n - Math.floor((n + 1) / 1000) + added : n;
  const results: ResultSource = {
    count,
    *[Symbol.iterator]() {
      for (let i = 0; i < n; i++) if (!head || inHead(i)) yield result(i, head, driftEvery);
      for (let i = n; i < n + added; i++) yield result(i, head, driftEvery);
    },
  };
  const data = {
    schemaVersion: SCHEMA_VERSION,
    tool: { name: 'answer-eval', version: '0.1.0' },
    run: {
      startedAt: new Date(Date.UTC(2026, 0, head ? 2 : 1, 2)).toISOString(),
      finishedAt: new Date(Date.UTC(2026, 0, head ? 2 : 1, 3)).toISOString(),
      durationMs: 3_600_000,
      status: 'completed' as const,
      baseUrl: 'https://answers.example.test',
      embeddedEngine: false,
      agent: 'bench',
      dataset: { path: 'bench.csv', sha256: (head ? 'cd' : 'ab').repeat(32), questions: count },
      options: { concurrency: 16, timeoutMs: 30_000, retries: 2, language: 'en', output: 'json', guest: true, forceSubscription: false },
    },
    ...scoreResults(results),
  };
  const [written] = await writeReports({ head: data, results }, join(dir, head ? 'head' : 'base'), ['json']);
  return written!;
}

/**
 * Writes base/report.json and head/report.json of `n` questions under `dir`; returns their paths and total size.
 * HEAD moves the top-1 score of 1 question in `driftEvery` (1: every question is listed somewhere).
 */
export async function writeComparePair(dir: string, n: number, driftEvery = 3): Promise<{ base: string; head: string; mb: number }> {
  const base = await writeRun(dir, n, false, driftEvery);
  const head = await writeRun(dir, n, true, driftEvery);
  return { base, head, mb: (statSync(base).size + statSync(head).size) / 1024 / 1024 };
}
