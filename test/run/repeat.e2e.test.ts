import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReportSchema, type Report } from '../../src/model/report.js';
import { runCli } from '../helpers/cli.js';
import { item, startSpecServer, type SpecServer } from '../helpers/spec-server.js';
import { tempDir, writeTemp } from '../helpers/tmp.js';

const dir = tempDir('answer-eval-repeat-cli-');
const env = { ANSWER_AGENT_CODE: 'code' };
const read = (path: string): Report => ReportSchema.parse(JSON.parse(readFileSync(path, 'utf8')));
let server: SpecServer;
const asked = new Map<string, number>();

beforeAll(async () => {
  // "shaky N" alternates its top-1 between two answers, scoring 80 and 60; the rest always gets answer 1
  server = await startSpecServer((req) => {
    const text = (req.body['question'] as { text: string }).text;
    const n = (asked.get(text) ?? 0) + 1;
    asked.set(text, n);
    return { body: { answers: text.startsWith('shaky') ? [n % 2 === 1 ? item(1, 80) : item(2, 60)] : [item(1, 90)] } };
  });
});
afterAll(() => server.close());

const rows = Array.from({ length: 20 }, (_, i) => `q${i},${i < 4 ? 'shaky' : 'steady'} ${i},1`);
const dataset = writeTemp(dir, 'qs.csv', `id,question,expected_sequence\n${rows.join('\n')}\n`);

describe('run --repeat through the CLI', () => {
  it('gates on --min-consistency after writing every report, and resumes after a crash asking only what is missing', async () => {
    const out = join(dir, 'run');
    const res = await runCli(['run', '-d', dataset, '--base-url', server.url, '--agent', 'a', '--repeat', '3', '--min-consistency', '0.9', '-c', '2', '-o', out, '-q'], env);
    expect(res.code).toBe(1);
    expect(res.stdout).toContain('gate FAILED: consistency 0.800 (16/20) < --min-consistency 0.9 (short by 0.100)');
    const report = read(join(out, 'report.json'));
    expect(report.metrics!.consistency!.inconsistent.map((q) => q.id)).toEqual(['q0', 'q1', 'q2', 'q3']);
    expect(readFileSync(join(out, 'summary.md'), 'utf8')).toContain('Consistency over 3 askings: **80.0%**');

    // kill -9 after 55 of the 60 askings: the journal's last lines are lost, and a line is torn
    const journal = readFileSync(join(out, 'journal.jsonl'), 'utf8').split('\n');
    writeFileSync(join(out, 'journal.jsonl'), `${journal.slice(0, 1 + 55).join('\n')}\n${journal[56]!.slice(0, 30)}`);
    const before = server.received.length;
    const resumed = await runCli(['run', '--resume', out, '-q'], env);
    // finished as it was started: with its gate, which fails again
    expect(resumed.stderr).toBe('answer-eval: --resume: as the run was started: --min-consistency 0.9\nanswer-eval: gate failed:\n  - consistency 0.800 (16/20) < --min-consistency 0.9 (short by 0.100)\n');
    expect(resumed.code).toBe(1);
    expect(server.received.length - before).toBe(5);
    const again = read(join(out, 'report.json'));
    expect(again.run).toMatchObject({ status: 'completed', repeat: { times: 3, scored: 'first' }, resumed: { fromJournal: 20, asked: 5 } });
    expect(again.results.every((r) => r.repeats!.others.length === 2)).toBe(true);

    // rescore keeps the askings: a floor above the second answer's score makes it a refusal
    const rescored = await runCli(['rescore', out, '-o', join(dir, 'rescored'), '--floor', '70', '--format', 'json'], env);
    expect(rescored.code).toBe(0);
    const r = read(join(dir, 'rescored', 'report.json'));
    expect(r.results.find((q) => q.id === 'q0')!.repeats).toMatchObject({ consistent: false, others: [{ sequence: null, error: false }, { sequence: 1 }] });
  });

  it('refuses --min-consistency without --repeat', async () => {
    const res = await runCli(['run', '-d', dataset, '--base-url', server.url, '--agent', 'a', '--min-consistency', '0.9', '-o', join(dir, 'x')], env);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('--min-consistency needs --repeat N with N >= 2');
  });
});
