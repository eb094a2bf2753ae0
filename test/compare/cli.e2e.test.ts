import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ChangeLineSchema, ComparisonSchema } from '../../src/compare/schema.js';
import type { Report } from '../../src/model/report.js';
import { fromReport } from '../../src/model/source.js';
import { writeReports } from '../../src/report/write.js';
import { runCli } from '../helpers/cli.js';
import { tempDir, writeTemp } from '../helpers/tmp.js';
import { many, report, result } from './fixtures.js';

const dir = tempDir();
const save = (name: string, r: unknown): string => writeTemp(dir, name, JSON.stringify(r));
const base = save('base.json', report([...many('a', 8, 'correct'), result('w', 'wrong', 2), result('e', 'correct')]));
const head = save('head.json', report([...many('a', 7, 'correct'), result('a7', 'wrong', 3), result('w', 'correct'), result('e', 'error')]));
const compare = (...args: string[]) => runCli(['compare', ...args, '--resamples', '200']);

describe('answer-eval compare', () => {
  it('writes compare.json, .html and .md beside HEAD by default, prints a summary, exits 0 without gates', async () => {
    const res = await compare(base, head);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(res.stdout).toContain(`Compare: ${base} -> ${head}`);
    expect(res.stdout).toContain('questions: 10 common, 0 added, 0 removed, 0 changed (question or expectation edited)');
    expect(res.stdout).toContain('broken 1  fixed 1  top-1 changed 0  score drift 0  errors 1');
    const c = ComparisonSchema.parse(JSON.parse(readFileSync(join(dir, 'compare.json'), 'utf8')));
    expect(c.questions.broken.map((q) => q.id)).toEqual(['a7']);
    expect(existsSync(join(dir, 'compare.html'))).toBe(true);
    expect(existsSync(join(dir, 'compare.md'))).toBe(true);
    // every change, one a line, with its class
    const lines = readFileSync(join(dir, 'changes.jsonl'), 'utf8').trimEnd().split('\n').map((l) => ChangeLineSchema.parse(JSON.parse(l)));
    expect(lines.map((l) => `${l.class}:${l.id}`)).toEqual(['broken:a7', 'fixed:w', 'errors:e']);
    expect(res.stdout).toContain(`reports: ${join(dir, 'compare.json')}, ${join(dir, 'compare.html')}, ${join(dir, 'compare.md')}, ${join(dir, 'changes.jsonl')}`);
  });

  it('reads reports in the layout answer-eval writes one result at a time, and lists a class past compare.json\'s limit in changes.jsonl', async () => {
    const big = (outcome: 'correct' | 'wrong') => report(Array.from({ length: 1500 }, (_, i) => result(`q${i}`, i % 2 === 0 ? outcome : 'correct')));
    const streamed = join(dir, 'streamed');
    await writeReports(fromReport(big('correct')), join(streamed, 'base'), ['json']);
    await writeReports(fromReport(big('wrong')), join(streamed, 'head'), ['json']);
    const res = await compare(join(streamed, 'base', 'report.json'), join(streamed, 'head', 'report.json'), '--out', join(streamed, 'out'));
    expect(res.stderr).toBe('');
    const c = ComparisonSchema.parse(JSON.parse(readFileSync(join(streamed, 'out', 'compare.json'), 'utf8')));
    expect([c.counts.broken, c.questions.broken.length, c.options.listLimit]).toEqual([750, 750, 1000]);
    expect(readFileSync(join(streamed, 'out', 'changes.jsonl'), 'utf8').trimEnd().split('\n')).toHaveLength(750);
  });

  it('exit 1 on a regression gate and on a quality gate judged on HEAD; the files are still written to --out', async () => {
    const out = join(dir, 'gated');
    const res = await compare(base, head, '--out', out, '--fail-on', 'regression', '--min-accuracy', '0.9', '--max-error-rate', '0.2');
    expect(res.code).toBe(1);
    expect(res.stderr).toBe('answer-eval: gate failed:\n  - top1Accuracy 0.889 < --min-accuracy 0.9 (short by 0.011)\n  - 1 broken question (a7) with --fail-on regression\n');
    expect(res.stdout).toContain('gate passed: error rate 0.100 <= --max-error-rate 0.2');
    for (const f of ['compare.json', 'compare.html', 'compare.md']) expect(existsSync(join(out, f))).toBe(true);
    // the verdict is in every file: compare.md opens on it, compare.json holds each gate, compare.html shows a banner
    expect(readFileSync(join(out, 'compare.md'), 'utf8').split('\n')[0]).toBe(
      '**❌ answer-eval: 2 of 3 gates FAILED**: top1Accuracy 0.889 &lt; --min-accuracy 0.9 (short by 0.011); 1 broken question (a7) with --fail-on regression',
    );
    const c = ComparisonSchema.parse(JSON.parse(readFileSync(join(out, 'compare.json'), 'utf8')));
    expect(c.gates?.passed).toBe(false);
    expect(c.gates?.results.map((g) => [g.gate, g.metric, g.threshold, g.value, g.passed])).toEqual([
      ['--min-accuracy', 'top1Accuracy', 0.9, 8 / 9, false],
      ['--max-error-rate', 'errorRate', 0.2, 0.1, true],
      ['--fail-on regression', 'broken', 0, 1, false],
    ]);
    expect(readFileSync(join(out, 'compare.html'), 'utf8')).toContain('<div class="verdict fail" role="status"><strong>answer-eval: 2 of 3 gates FAILED</strong>');
    // no annotation outside GitHub Actions
    expect(res.stdout).not.toContain('::error');
  });

  it('on GitHub Actions, a failed gate is also a workflow ::error annotation on stdout', async () => {
    const res = await runCli(['compare', base, head, '--out', join(dir, 'gha'), '--resamples', '200', '--fail-on', 'regression', '--max-error-rate', '0.2'], { GITHUB_ACTIONS: 'true' });
    expect(res.code).toBe(1);
    expect(res.stdout.split('\n').filter((l) => l.startsWith('::'))).toEqual(['::error title=answer-eval gate::--fail-on regression: 1 broken question (a7) with --fail-on regression']);
  });

  it('exit 3 when the runs have no question in common: nothing was compared, gate or not; the reports are still written', async () => {
    const disjoint = save('disjoint.json', report([result('x1', 'correct'), result('x2', 'wrong')]));
    const out = join(dir, 'disjoint');
    const res = await compare(base, disjoint, '--out', out);
    expect(res.code).toBe(3);
    expect(res.stderr).toBe('answer-eval: no question is in both runs with the same id and text (2 added, 10 removed, 0 changed): nothing was compared; the reports are written\n');
    expect(res.stdout).toContain('questions: 0 common, 2 added, 10 removed');
    expect(ComparisonSchema.parse(JSON.parse(readFileSync(join(out, 'compare.json'), 'utf8'))).counts.common).toBe(0);
  });

  it('exit 3 when every question of both runs ended in error in one of them, gate or not: errors are never regressions, and nothing was compared', async () => {
    const failing = save('all-errors.json', report(many('a', 8, 'error')));
    const why = 'every one of the 8 questions in both runs ended in error in one of them (errors are never regressions): nothing was compared';
    for (const gate of [[], ['--fail-on', 'regression'], ['--max-broken', '0']]) {
      const res = await compare(base, failing, '--out', join(dir, `all-errors${gate.length}`), ...gate);
      expect(res.code, gate.join(' ')).toBe(3);
      expect(res.stderr).toBe(`answer-eval: ${why}; the reports are written\n`);
      if (gate.length > 0) expect(res.stdout).toContain(`gate FAILED: ${gate.join(' ').replace(' 0', '')} cannot be judged: ${why}`);
    }
  });

  it('a regression gate on runs without a question labeled in both cannot pass; without a gate, the changes of top-1 are the result', async () => {
    const unlabeled = (name: string) => save(name, report(many('u', 4, 'unlabeled')));
    const [a, b] = [unlabeled('unlabeled-a.json'), unlabeled('unlabeled-b.json')];
    const plain = await compare(a, b, '--out', join(dir, 'unlabeled'));
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stdout).toContain('no question is labeled and error-free in both reports: nothing to test');
    const gated = await compare(a, b, '--out', join(dir, 'unlabeled-gated'), '--fail-on', 'regression');
    expect(gated.code).toBe(1);
    expect(gated.stdout).toContain('gate FAILED: --fail-on regression cannot be judged: none of the 4 questions in both runs is labeled and answered without error in both: no regression can be judged');
  });

  it('exit 2 for reports of different agents (not datasets), naming both files and the difference; --force compares them', async () => {
    const other = save('other.json', report([result('a0', 'correct')], { sha256: 'bbb', agent: 'else' }));
    const refused = join(dir, 'refused');
    const res = await compare(base, other, '--out', refused);
    expect(res.code).toBe(2);
    expect(res.stderr).toBe(`answer-eval: cannot compare ${base} with ${other}:\n  - agent differs: "demo" in ${base}, "else" in ${other}\npass --force to compare them anyway\n`);
    expect(existsSync(refused) ? readdirSync(refused) : []).toEqual([]); // no changes.jsonl left half-written
    const forced = await compare(base, other, '--force', '--out', join(dir, 'forced'));
    expect(forced.code).toBe(0);
    expect(forced.stdout).toContain(`forced: agent differs: "demo" in ${base}, "else" in ${other}`);
  });

  it('exit 2 for another schemaVersion major, said before any field check', async () => {
    const v2 = save('v2.json', { schemaVersion: '2.0', something: 'new' });
    const res = await compare(base, v2);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(`schemaVersion major differs: "1.0" in ${base}, "2.0" in ${v2}`);
  });

  it('exit 2 for a compare.json given for a report.json, saying what it is and what to pass, with or without --force', async () => {
    const out = join(dir, 'a-comparison');
    expect((await compare(base, head, '--out', out)).code).toBe(0);
    const json = join(out, 'compare.json');
    const said = `answer-eval: ${json}: this is a compare.json (what answer-eval compare writes), not a report.json; pass the report.json of a run, or the directory a run wrote it to (this comparison was of ${base} and ${head})\n`;
    for (const args of [[base, json], [base, json, '--force'], [json, head]]) {
      const res = await compare(...args, '--out', join(dir, 'given-compare-json'));
      expect(res.code, args.join(' ')).toBe(2);
      expect(res.stderr).toBe(said);
    }
  });

  it('exit 2 naming the file and the first bad field of an invalid report, or a file that is not JSON', async () => {
    const broken = JSON.parse(readFileSync(head, 'utf8')) as Report;
    (broken.results[1] as { outcome: string }).outcome = 'great';
    const bad = save('bad.json', broken);
    const res = await compare(base, bad);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(new RegExp(`^answer-eval: ${bad}: results\\[1\\]\\.outcome: .*\\(not a valid answer-eval report`));
    const notJson = writeTemp(dir, 'x.json', '{oops');
    const res2 = await compare(notJson, head);
    expect(res2.code).toBe(2);
    expect(res2.stderr).toMatch(new RegExp(`^answer-eval: ${notJson}: not JSON \\(`));
    const usage = await runCli(['compare', base]);
    expect(usage.code).toBe(2);
    const badFlag = await compare(base, head, '--max-error-rate', '2');
    expect(badFlag.code).toBe(2);
    expect(badFlag.stderr).toBe('answer-eval: --max-error-rate must be a share between 0 and 1, got 2\n');
  });

  it('is reproducible: the same seed writes the same compare.json', async () => {
    const a = join(dir, 'r1');
    const b = join(dir, 'r2');
    mkdirSync(a);
    mkdirSync(b);
    await compare(base, head, '--out', a, '--seed', '42');
    await compare(base, head, '--out', b, '--seed', '42');
    expect(readFileSync(join(a, 'compare.json'), 'utf8')).toBe(readFileSync(join(b, 'compare.json'), 'utf8'));
  });
});
