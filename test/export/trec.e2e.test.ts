import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReportSchema, type Report } from '../../src/model/report.js';
import { runCli } from '../helpers/cli.js';
import { item, startSpecServer, type SpecServer } from '../helpers/spec-server.js';
import { tempDir, writeTemp } from '../helpers/tmp.js';

const replies: Record<string, unknown> = {
  pay: { answers: [item(1, 90), item(2, 40)] },
  tie: { answers: [item(3, 70), item(4, 70), item(5, 10)] },
  alias: { answers: [item(6, 50), item(7, 45), item(8, 40), item(9, 30)] },
  unordered: { answers: [item(10, 20), item(11, 60), item(12, 40, { category: 'Billing' })] },
  none: { answers: [item(13, 80)] },
  empty: { answers: [] },
  tag: { answers: [item(14, 30, { tags: 'refund|money' })] },
  weather: { answers: [item(99, 5, { is_dummy_floor_answer: 'true' })] },
  free: { answers: [item(1, 50)] },
  both: { answers: [item(15, 90), item(16, 85, { answer: 'Refunds take 5 days' })] },
};
const rows = [
  { id: 'q1', question: 'pay', expected_sequence: 1 },
  { id: 'q2', question: 'tie', expected_label: 'label-4' },
  { id: 'q3', question: 'alias', expected_sequence: 100 },
  { id: 'q4', question: 'unordered', expected_category: 'billing' },
  { id: 'q5', question: 'none', expected_label: 'zzz' },
  { id: 'q 6', question: 'empty', expected_sequence: 1 },
  { id: 'q7', question: 'tag', expected_tag: 'refund' },
  { id: 'q8', question: 'weather', expect: 'fallback' },
  { id: 'q9', question: 'boom', expected_sequence: 1 },
  { id: 'q10', question: 'free' },
  { id: 'q11', question: 'both', expected_answer: 'contains:5 DAYS', expected_label: 'label-16' },
];

const dir = tempDir();
let server: SpecServer;
let report: Report;
const out = join(dir, 'out');

beforeAll(async () => {
  server = await startSpecServer((req) => {
    const body = replies[(req.body['question'] as { text: string }).text];
    return body === undefined ? { status: 500, body: 'boom' } : { body };
  });
  const dataset = writeTemp(dir, 'qs.jsonl', rows.map((r) => JSON.stringify(r)).join('\n'));
  const aliases = writeTemp(dir, 'aliases.csv', 'old,new\n100,9\n');
  const ran = await runCli(['run', '-d', dataset, '--aliases', aliases, '--base-url', server.url, '--agent', 'a', '--retries', '0', '-o', out, '--format', 'json'], { ANSWER_AGENT_CODE: 'code-c' });
  expect(ran.stderr).toMatch(/^answer-eval: warning: 1 of 11 questions \(9\.1%\) ended in error: left out of the figures, not counted as wrong/);
  report = ReportSchema.parse(JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')));
  const exported = await runCli(['export', '--from', join(out, 'report.json'), '--format', 'trec', '--aliases', aliases]);
  expect(exported).toMatchObject({ code: 0, stderr: '' });
});
afterAll(() => server.close());

describe('rank and margin in a run', () => {
  it('ranks the first matching answer in score order (ties in server order), through aliases', () => {
    const by = Object.fromEntries(report.results.map((r) => [r.id, [r.outcome, r.rank, r.margin]]));
    expect(by).toEqual({
      q1: ['correct', 1, 50],
      q2: ['wrong', 2, 0],
      q3: ['wrong', 4, 5],
      q4: ['wrong', 2, 20],
      q5: ['wrong', null, null],
      'q 6': ['abstained', null, null],
      q7: ['correct', 1, null],
      q8: ['fallback_ok', null, null],
      q9: ['error', null, null],
      q10: ['unlabeled', null, null],
      q11: ['wrong', 2, 5],
    });
    // ranks 1, 2, 4, 2, -, -, 1, 2 over 8 ranked questions
    expect(report.metrics?.rank).toMatchObject({ questions: 8, hit1: 2 / 8, hit3: 5 / 8, hit5: 6 / 8, mrr: (1 + 0.5 + 0.25 + 0.5 + 0 + 0 + 1 + 0.5) / 8, meanMargin: (50 + 0 + 5 + 20 + 5) / 5 });
  });
});

/** trec_eval-style measures computed from the exported files alone, averaged over every qid in the qrels (`-c`). */
function trecEval(runText: string, qrelsText: string): { P_1: number; recip_rank: number; success_3: number; success_5: number; queries: number } {
  const rel = new Map<string, Map<string, number>>();
  for (const line of qrelsText.trim().split('\n')) {
    const [q, , doc, r] = line.split(/\s+/) as [string, string, string, string];
    if (!rel.has(q)) rel.set(q, new Map());
    rel.get(q)!.set(doc, Number(r));
  }
  const ranked = new Map<string, { doc: string; rank: number; score: number }[]>();
  for (const line of runText.trim().split('\n')) {
    const [q, , doc, rank, score] = line.split(/\s+/) as [string, string, string, string, string];
    if (!ranked.has(q)) ranked.set(q, []);
    ranked.get(q)!.push({ doc, rank: Number(rank), score: Number(score) });
  }
  let p1 = 0, rr = 0, s3 = 0, s5 = 0;
  for (const [q, docs] of rel) {
    const list = (ranked.get(q) ?? []).sort((a, b) => b.score - a.score || a.rank - b.rank);
    const first = list.findIndex((d) => (docs.get(d.doc) ?? 0) > 0);
    if (first === 0) p1++;
    if (first >= 0) rr += 1 / (first + 1);
    if (first >= 0 && first < 3) s3++;
    if (first >= 0 && first < 5) s5++;
  }
  const n = rel.size;
  return { P_1: p1 / n, recip_rank: rr / n, success_3: s3 / n, success_5: s5 / n, queries: n };
}

describe('answer-eval export --format trec', () => {
  const run = () => readFileSync(join(out, 'run.trec'), 'utf8');
  const qrels = () => readFileSync(join(out, 'qrels.trec'), 'utf8');

  it('writes run lines in score order and qrels of the matching answers', () => {
    expect(run().split('\n').slice(0, 5)).toEqual(['q1 Q0 1 1 90 answer-eval', 'q1 Q0 2 2 40 answer-eval', 'q2 Q0 3 1 70 answer-eval', 'q2 Q0 4 2 70 answer-eval', 'q2 Q0 5 3 10 answer-eval']);
    expect(run()).toContain('q4 Q0 11 1 60 answer-eval\nq4 Q0 12 2 40 answer-eval\nq4 Q0 10 3 20 answer-eval\n');
    expect(run()).not.toMatch(/^q(8|9|10) /m);
    const lines = qrels().split('\n');
    expect(lines).toContain('q3 0 9 1');
    expect(lines).toContain('q3 0 6 0');
    expect(lines).toContain('q_6 0 1 1');
    expect(lines.filter((l) => l.startsWith('q5 '))).toEqual(['q5 0 13 0']);
  });

  it('hit@k and MRR equal trec_eval-style P@1, success@k and recip_rank on the exported files', () => {
    const t = trecEval(run(), qrels());
    const m = report.metrics!.rank;
    expect(t.queries).toBe(m.questions);
    expect(t.P_1).toBeCloseTo(m.hit1!, 12);
    expect(t.success_3).toBeCloseTo(m.hit3!, 12);
    expect(t.success_5).toBeCloseTo(m.hit5!, 12);
    expect(t.recip_rank).toBeCloseTo(m.mrr!, 12);
  });

  it('names a file that is not a report', async () => {
    const bad = writeTemp(dir, 'bad.json', '{"x":1}');
    const res = await runCli(['export', '--from', bad]);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/bad\.json: schemaVersion: .*\(not a valid answer-eval report/);
  });

  it('refuses a report of another schema major, naming both versions, as every reader does', async () => {
    const future = writeTemp(dir, 'future.json', JSON.stringify({ schemaVersion: '9.0', results: [] }));
    const res = await runCli(['export', '--from', future]);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/future\.json: schemaVersion 9\.0 cannot be read by this answer-eval \(schema 1\.\d+\)/);
  });
});
