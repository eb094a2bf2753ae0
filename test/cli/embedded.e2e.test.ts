import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SAMPLE_KB } from '../../src/engine/index.js';
import { ReportSchema } from '../../src/model/report.js';
import { CLI, runCli } from '../helpers/cli.js';
import { tempDir, writeTemp } from '../helpers/tmp.js';

const dir = tempDir();

describe('answer-eval run with no --base-url', () => {
  it('asks the sample questions of the embedded engine and meets the sample-set figures the README states', async () => {
    const out = join(dir, 'sample');
    const res = await runCli(['run', '-o', out, '--format', 'json']);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/Run: 113 of 113 questions against the embedded engine \(agent demo\)/);
    const report = ReportSchema.parse(JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')));
    expect(report.run.embeddedEngine).toBe(true);
    const s = report.summary;
    expect(s.outcomes.error).toBe(0);
    expect(s.answerableAccuracy).toBeGreaterThanOrEqual(0.85);
    const refused = s.outcomes.fallback_ok / (s.outcomes.fallback_ok + s.outcomes.fallback_missed);
    expect(refused).toBeGreaterThanOrEqual(0.8);
  });

  it('uses --kb and --dataset with the embedded engine', async () => {
    const kb = writeTemp(
      dir,
      'kb.jsonl',
      [
        { sequence_number: 1, answer: 'Pay by card or bank transfer.', label: 'pay', language: 'en', examples: ['how do I pay my bill', 'payment methods'] },
        { sequence_number: 2, answer: 'Hello!', label: 'hello', language: 'en', small_talk: true, examples: ['hello', 'hi there'] },
      ]
        .map((e) => JSON.stringify(e))
        .join('\n'),
    );
    const questions = writeTemp(dir, 'q.csv', 'question,expected_label,expect\nhow can I pay the bill?,pay,\nhi,hello,\nwho won the world cup,,fallback\n');
    const out = join(dir, 'custom');
    const res = await runCli(['run', '--kb', kb, '-d', questions, '-o', out, '--format', 'json']);
    expect(res.code).toBe(0);
    const report = ReportSchema.parse(JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')));
    expect(report.results.map((r) => r.outcome)).toEqual(['correct', 'correct', 'fallback_ok']);
  });

  it('reads --kb once, so a pipe serves the engine, its sha256 and the scoring (--kb <(cat kb.jsonl))', async () => {
    const questions = writeTemp(dir, 'pay.csv', 'id,question,expected_label\np1,how can I pay my bill?,payment_methods\n');
    const out = join(dir, 'piped-kb');
    const res = spawnSync('bash', ['-c', `"${process.execPath}" "${CLI}" run --kb <(cat "${SAMPLE_KB}") -d "${questions}" -o "${out}" --format json -q`], { encoding: 'utf8', timeout: 60_000 });
    expect(res.stderr).toBe('');
    expect(res.status).toBe(0);
    const report = ReportSchema.parse(JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')));
    expect(report.run.engine?.kb).toEqual({ path: expect.stringMatching(/^\/dev\/fd\/\d+$/), sha256: createHash('sha256').update(readFileSync(SAMPLE_KB)).digest('hex') });
    expect(report.results.map((r) => r.outcome)).toEqual(['correct']);
    expect(report.metrics?.entries.find((e) => e.key === 'payment_methods')?.category).toBe('payments');
  });

  it('warns, before asking and whatever --quiet says, of expectations the knowledge base cannot meet, naming file:line', async () => {
    // a pull request that mistypes two labels of the sample knowledge base: the run goes on, and says which rows will fail
    const questions = writeTemp(dir, 'typos.csv', 'id,question,expected_label\nq1,hello there,greeting\nq2,Hi!,greetings\nq3,how do I pay my bill?,payment_method\n');
    const out = join(dir, 'typos');
    const res = await runCli(['run', '-d', questions, '-o', out, '--format', 'json', '--quiet']);
    expect(res.code).toBe(0);
    expect(res.stderr.split('\n').filter((l) => l !== '')).toEqual([
      `answer-eval: warning: ${questions}:3: expected_label "greetings": no label in the knowledge base matches it (that question will fail)`,
      `answer-eval: warning: ${questions}:4: expected_label "payment_method": no label in the knowledge base matches it (that question will fail)`,
    ]);
    const report = ReportSchema.parse(JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')));
    expect(report.results.map((r) => r.outcome === 'correct')).toEqual([true, false, false]);
  });
});
