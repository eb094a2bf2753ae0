import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ReportSchema } from '../../src/model/report.js';
import { runCli } from '../helpers/cli.js';
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
});
