import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ComparisonSchema } from '../../src/compare/schema.js';
import { SAMPLE_KB, SAMPLE_QUESTIONS } from '../../src/engine/index.js';
import { ReportSchema } from '../../src/model/report.js';
import { runCli } from '../helpers/cli.js';
import { tempDir, writeTemp } from '../helpers/tmp.js';

// Issue 12 (a): a pull request adds three questions, rewords one, and edits one knowledge-base entry; the
// embedded engine answers (--kb). `run --baseline` compares by id and exits 1 only when a common question broke.
const dir = tempDir();

/** The sample knowledge base with entry `seq` edited. */
function kbWith(name: string, seq: number, edit: (entry: { examples: string[] }) => object): string {
  const lines = readFileSync(SAMPLE_KB, 'utf8').trimEnd().split('\n');
  const edited = lines.map((line) => {
    const entry = JSON.parse(line) as { sequence_number: number; examples: string[] };
    return entry.sequence_number === seq ? JSON.stringify(edit(entry)) : line;
  });
  return writeTemp(dir, name, `${edited.join('\n')}\n`);
}

// the PR's dataset: q010 reworded, three questions added (one out of scope)
const prDataset = writeTemp(
  dir,
  'pr.csv',
  readFileSync(SAMPLE_QUESTIONS, 'utf8').replace('q010,can someone explain the different charges on my bill,', 'q010,what are all the charges on my bill,') +
    'q901,how do I pay my bill by card,20,payment_methods,,en,payments|en\nq902,can I get a refund for overpaying,24,refund,,en,billing|en\nq903,who won the football match yesterday,,,fallback,en,oos|en\n',
);
// entry 24 (refund) learns a phrasing it missed: nothing breaks; entry 40 (power_outage) loses its examples: questions break
const fixingKb = kbWith('kb-fix.jsonl', 24, (e) => ({ ...e, examples: [...e.examples, 'how long does a refund take'] }));
const breakingKb = kbWith('kb-break.jsonl', 40, (e) => ({ ...e, examples: ['electricity supply interrupted'] }));

const baseline = join(dir, 'main', 'report.json');
const pr = (kb: string, out: string, env: Record<string, string> = {}) =>
  runCli(['run', '-d', prDataset, '--kb', kb, '-o', join(dir, out), '--baseline', baseline, '--fail-on', 'regression', '--max-error-rate', '0', '-q'], env);
const text = (out: string, file: string) => readFileSync(join(dir, out, file), 'utf8');
const firstLine = (out: string, file: string) => text(out, file).split('\n')[0];

beforeAll(async () => {
  // the baseline: the main branch's dataset and knowledge base
  const main = await runCli(['run', '-o', join(dir, 'main'), '--format', 'json', '-q']);
  expect(main.stderr).toBe('');
  expect(main.code).toBe(0);
}, 60_000);

describe('a pull request that adds and rewords questions and edits the knowledge base (embedded engine)', () => {
  it('exits 0 when no common question broke; the reports say every gate passed and count common, added, removed, changed', async () => {
    const stepSummary = join(dir, 'step-summary-fix.md');
    const res = await pr(fixingKb, 'fix', { GITHUB_STEP_SUMMARY: stepSummary, GITHUB_ACTIONS: 'true' });
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('questions: 112 common, 3 added, 0 removed, 1 changed (question or expectation edited)');
    expect(res.stdout).toContain('changed: q010 (question edited; not compared)');
    expect(res.stdout).not.toContain('::error');

    const c = ComparisonSchema.parse(JSON.parse(text('fix', 'compare.json')));
    expect(c.counts).toMatchObject({ common: 112, added: 3, removed: 0, changed: 1, broken: 0 });
    expect(c.questions.added.map((q) => q.id)).toEqual(['q901', 'q902', 'q903']);
    expect(c.questions.fixed.map((q) => q.id)).toContain('q029'); // the phrasing entry 24 learned
    expect(c.gates).toMatchObject({ passed: true });

    const verdict = '**✅ answer-eval: every gate passed (2 gates)**';
    expect(firstLine('fix', 'summary.md')).toBe(verdict);
    expect(readFileSync(stepSummary, 'utf8').split('\n')[0]).toBe(verdict);
    expect(firstLine('fix', 'compare.md')).toBe(verdict);
    expect(text('fix', 'compare.md')).toContain('Questions: 112 common, 3 added, 0 removed, 1 changed (question or expectation edited)');
    const report = ReportSchema.parse(JSON.parse(text('fix', 'report.json')));
    expect(report.gates?.results.map((g) => [g.gate, g.passed])).toEqual([
      ['--max-error-rate', true],
      ['--fail-on regression', true],
    ]);
    expect(report.run.engine).toMatchObject({ kb: { path: fixingKb }, floorThreshold: 50, suggestionThreshold: 50 });
    expect(text('fix', 'junit.xml')).toContain('<testsuite name="answer-eval gates" tests="2" failures="0"');
    expect(text('fix', 'report.html')).toContain('<div class="verdict pass" role="status"><strong>answer-eval: every gate passed (2 gates)</strong>');
  });

  it('exits 1 when a common question broke; the verdict is the first line of summary.md and compare.md, in junit.xml and the pages', async () => {
    const res = await pr(breakingKb, 'break', { GITHUB_ACTIONS: 'true' });
    expect(res.code).toBe(1);
    const why = '2 broken questions (q041, q042) with --fail-on regression';
    expect(res.stderr).toBe(`answer-eval: gate failed:\n  - ${why}\n`);
    expect(res.stdout).toContain(`::error title=answer-eval gate::--fail-on regression: ${why}\n`);

    const verdict = `**❌ answer-eval: 1 of 2 gates FAILED**: ${why}`;
    expect(firstLine('break', 'summary.md')).toBe(verdict);
    expect(firstLine('break', 'compare.md')).toBe(verdict);
    const c = ComparisonSchema.parse(JSON.parse(text('break', 'compare.json')));
    expect(c.counts).toMatchObject({ common: 112, added: 3, removed: 0, changed: 1, broken: 2 });
    // the reworded question is not a regression whatever its outcome: it is listed apart
    expect(c.questions.broken.map((q) => q.id)).not.toContain('q010');
    expect(c.gates?.results.find((g) => g.gate === '--fail-on regression')).toMatchObject({ passed: false, metric: 'broken', threshold: 0, value: 2 });

    const junit = text('break', 'junit.xml');
    expect(junit).toContain('<testsuite name="answer-eval gates" tests="2" failures="1"');
    expect(junit).toContain(`<testcase classname="answer-eval.gate" name="--fail-on regression" time="0.000">\n      <failure type="gate" message="${why}">`);
    expect(text('break', 'report.html')).toContain(`<div class="verdict fail" role="status"><strong>answer-eval: 1 of 2 gates FAILED</strong>: ${why}`);
    expect(text('break', 'compare.html')).toContain(`<div class="verdict fail" role="status"><strong>answer-eval: 1 of 2 gates FAILED</strong>: ${why}`);
  });
});
