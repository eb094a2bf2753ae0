import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inShard } from '../../src/dataset/shard.js';
import { ReportSchema, SCHEMA_VERSION } from '../../src/model/report.js';
import { runCli } from '../helpers/cli.js';
import { item, startSpecServer, type SpecServer } from '../helpers/spec-server.js';
import { tempDir, writeTemp } from '../helpers/tmp.js';

const dir = tempDir();
const env = { ANSWER_AGENT_CODE: 'code' };
/** Question text -> the sequence number the service ranks first ('500' answers HTTP 500, 'floor' a floor answer). */
let answers: Record<string, string> = {};
let server: SpecServer;

beforeAll(async () => {
  server = await startSpecServer((req) => {
    if (req.headers['wikiclone_code'] !== 'code') return { status: 404, body: '' };
    const top = answers[(req.body['question'] as { text: string }).text] ?? '9';
    if (top === '500') return { status: 500, body: 'boom' };
    if (top === 'floor') return { body: { answers: [item(99, 5, { is_dummy_floor_answer: 'true' })] } };
    return { body: { answers: [item(Number(top), 90), item(50, 10)] } };
  });
});
afterAll(() => server.close());

// a1..a6 expect answer 1; f1, f2 expect a fallback; e1 gets an error when told to
const csv = 'id,question,expected_sequence,expect\na1,q a1,1,\na2,q a2,1,\na3,q a3,1,\na4,q a4,1,\na5,q a5,1,\na6,q a6,1,\nf1,q f1,,fallback\nf2,q f2,,fallback\n';
const dataset = writeTemp(dir, 'qs.csv', csv);
const allGood = () => ({ 'q a1': '1', 'q a2': '1', 'q a3': '1', 'q a4': '1', 'q a5': '1', 'q a6': '1', 'q f1': 'floor', 'q f2': 'floor' });
const run = (out: string, ...extra: string[]) => runCli(['run', '-d', dataset, '--base-url', server.url, '--agent', 'demo', '--retries', '0', '-c', '2', '--resamples', '200', '-o', join(dir, out), ...extra], env);

describe('run: quality gates', () => {
  it('exit 0 when every gate passes, listing them', async () => {
    answers = allGood();
    const res = await run('pass', '--min-accuracy', '1', '--min-answerable-accuracy', '1', '--max-error-rate', '0', '--max-fallback-missed-rate', '0');
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('gate passed: top1Accuracy 1.000 >= --min-accuracy 1');
    expect(res.stdout.match(/gate passed/g)).toHaveLength(4);
  });

  it('exit 1 on --min-accuracy and --min-answerable-accuracy, saying by how much, with every report written', async () => {
    answers = { ...allGood(), 'q a1': '2', 'q a2': '2' }; // 6 of 8 correct; answerable 4 of 6
    const res = await run('acc', '--min-accuracy', '0.8', '--min-answerable-accuracy', '0.7');
    expect(res.code).toBe(1);
    expect(res.stderr).toBe(
      'answer-eval: gate failed:\n  - top1Accuracy 0.750 < --min-accuracy 0.8 (short by 0.050)\n  - answerableAccuracy 0.667 < --min-answerable-accuracy 0.7 (short by 0.033)\n',
    );
    expect(existsSync(join(dir, 'acc', 'report.json'))).toBe(true);
  });

  it('the verdict is in every report: report.json, summary.md (first line) and the job summary, junit.xml, report.html; a GitHub annotation', async () => {
    answers = { ...allGood(), 'q a1': '2', 'q a2': '2' };
    const stepSummary = join(dir, 'step-summary.md');
    const res = await run('verdict', '--min-accuracy', '0.8', '--max-error-rate', '0.1');
    expect(res.code).toBe(1);
    const ghRes = await runCli(
      ['run', '-d', dataset, '--base-url', server.url, '--agent', 'demo', '--retries', '0', '-c', '2', '-o', join(dir, 'verdict-gh'), '--min-accuracy', '0.8', '--max-error-rate', '0.1'],
      { ...env, GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: stepSummary },
    );
    expect(ghRes.code).toBe(1);
    expect(ghRes.stdout).toContain('::error title=answer-eval gate::--min-accuracy: top1Accuracy 0.750 < --min-accuracy 0.8 (short by 0.050)\n');
    expect(ghRes.stdout).not.toContain('::error title=answer-eval gate::--max-error-rate');

    const out = join(dir, 'verdict');
    const report = ReportSchema.parse(JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')));
    expect(report.schemaVersion).toBe(SCHEMA_VERSION);
    expect(report.gates).toEqual({
      passed: false,
      results: [
        { gate: '--min-accuracy', metric: 'top1Accuracy', threshold: 0.8, value: 0.75, passed: false, message: 'top1Accuracy 0.750 < --min-accuracy 0.8 (short by 0.050)' },
        { gate: '--max-error-rate', metric: 'errorRate', threshold: 0.1, value: 0, passed: true, message: 'error rate 0.000 <= --max-error-rate 0.1' },
      ],
    });
    const firstLine = '**❌ answer-eval: 1 of 2 gates FAILED**: top1Accuracy 0.750 &lt; --min-accuracy 0.8 (short by 0.050)';
    expect(readFileSync(join(out, 'summary.md'), 'utf8').split('\n')[0]).toBe(firstLine);
    expect(readFileSync(stepSummary, 'utf8').split('\n')[0]).toBe(firstLine);
    const junit = readFileSync(join(out, 'junit.xml'), 'utf8');
    expect(junit).toContain('<testsuite name="answer-eval gates" tests="2" failures="1"');
    expect(junit).toContain('<testcase classname="answer-eval.gate" name="--min-accuracy" time="0.000">\n      <failure type="gate" message="top1Accuracy 0.750 &lt; --min-accuracy 0.8 (short by 0.050)">');
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    // right under the title, before the navigation and any figure
    expect(html.indexOf('<div class="verdict fail" role="status">')).toBeLessThan(html.indexOf('<nav class="toc"'));
    expect(html.indexOf('<div class="verdict fail" role="status">')).toBeGreaterThan(html.indexOf('</header>'));
  });

  it('exit 1 on --max-error-rate; an error is not a wrong answer', async () => {
    answers = { ...allGood(), 'q a3': '500' };
    const res = await run('err', '--max-error-rate', '0.1', '--min-accuracy', '1');
    expect(res.code).toBe(1);
    expect(res.stderr).toBe('answer-eval: gate failed:\n  - error rate 0.125 > --max-error-rate 0.1 (over by 0.025)\n');
    expect(res.stdout).toContain('gate passed: top1Accuracy 1.000 >= --min-accuracy 1');
  });

  it('exit 1 on --max-fallback-missed-rate', async () => {
    answers = { ...allGood(), 'q f1': '1' };
    const res = await run('fb', '--max-fallback-missed-rate', '0.25');
    expect(res.code).toBe(1);
    expect(res.stderr).toBe('answer-eval: gate failed:\n  - fallback missed rate 0.500 > --max-fallback-missed-rate 0.25 (over by 0.250)\n');
  });
});

describe('run --baseline: regression gates', () => {
  const baseline = join(dir, 'baseline', 'report.json');
  beforeAll(async () => {
    answers = allGood();
    expect((await run('baseline')).code).toBe(0);
  });

  it('--fail-on regression fails on one broken question and writes compare.* beside the run', async () => {
    answers = { ...allGood(), 'q a4': '3' };
    const res = await run('reg', '--baseline', baseline, '--fail-on', 'regression');
    expect(res.code).toBe(1);
    expect(res.stderr).toBe('answer-eval: gate failed:\n  - 1 broken question (a4) with --fail-on regression\n');
    expect(res.stdout).toContain('broken: a4 (correct -> wrong)');
    for (const f of ['report.json', 'compare.json', 'compare.html', 'compare.md']) expect(existsSync(join(dir, 'reg', f))).toBe(true);
    expect(readFileSync(join(dir, 'reg', 'compare.md'), 'utf8')).toContain('### Broken (1)');
  });

  it('--fail-on significant-regression passes one broken question (p = 1) but fails six (p = 0.03125)', async () => {
    answers = { ...allGood(), 'q a4': '3' };
    expect((await run('sig1', '--baseline', baseline, '--fail-on', 'significant-regression')).code).toBe(0);
    answers = { ...allGood(), 'q a1': '2', 'q a2': '2', 'q a3': '2', 'q a4': '2', 'q a5': '2', 'q a6': '2' };
    const res = await run('sig6', '--baseline', baseline, '--fail-on', 'significant-regression');
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('McNemar p 0.0313 < --alpha 0.05 (significant regression)');
    expect((await run('sig6b', '--baseline', baseline, '--fail-on', 'significant-regression', '--alpha', '0.01')).code).toBe(0);
  });

  it('a baseline with no question in common: said on stderr without a gate (the run still exit 0), a gate failure with one', async () => {
    answers = allGood();
    const other = writeTemp(dir, 'renamed.csv', 'id,question,expected_sequence\nz1,q a1,1\nz2,q a2,1\n');
    const plain = await runCli(['run', '-d', other, '--base-url', server.url, '--agent', 'demo', '-o', join(dir, 'renamed'), '--baseline', baseline], env);
    expect(plain.code).toBe(0);
    expect(plain.stderr).toBe(`answer-eval: --baseline ${baseline}: no question is in both runs with the same id and text (2 added, 8 removed, 0 changed): nothing was compared\n`);
    const gated = await runCli(['run', '-d', other, '--base-url', server.url, '--agent', 'demo', '-o', join(dir, 'renamed-gated'), '--baseline', baseline, '--fail-on', 'regression'], env);
    expect(gated.code).toBe(1);
    expect(gated.stderr).toContain('--fail-on regression cannot be judged: no question is in both runs');
    expect(gated.stderr).not.toContain(`--baseline ${baseline}:`);
  });

  it('--max-broken N', async () => {
    answers = { ...allGood(), 'q a1': '2', 'q a2': '2' };
    expect((await run('mb2', '--baseline', baseline, '--max-broken', '2')).code).toBe(0);
    const res = await run('mb1', '--baseline', baseline, '--max-broken', '1');
    expect(res.code).toBe(1);
    expect(res.stderr).toBe('answer-eval: gate failed:\n  - 2 broken questions > --max-broken 1 (over by 1): a1, a2\n');
  });

  it('errors are never regressions: they pass --fail-on regression and fail --max-error-rate', async () => {
    answers = { ...allGood(), 'q a1': '500' };
    expect((await run('errreg', '--baseline', baseline, '--fail-on', 'regression', '--max-broken', '0')).code).toBe(0);
    const res = await run('errreg2', '--baseline', baseline, '--fail-on', 'regression', '--max-error-rate', '0');
    expect(res.code).toBe(1);
    expect(res.stderr).toBe('answer-eval: gate failed:\n  - error rate 0.125 > --max-error-rate 0 (over by 0.125)\n');
  });
});

describe('run: exit codes 2 and 3 with gates', () => {
  it('exit 2 on a bad gate value, a regression gate without --baseline, or an incomparable baseline; nothing is sent', async () => {
    const before = server.received.length;
    const bad = await run('x1', '--min-accuracy', '1.5');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('answer-eval: --min-accuracy must be a share between 0 and 1, got 1.5\n');
    const noBase = await run('x2', '--fail-on', 'regression');
    expect(noBase.code).toBe(2);
    expect(noBase.stderr).toContain('--fail-on, --max-broken and --quarantine need --baseline FILE');
    const other = writeTemp(dir, 'other.csv', `${csv}a7,q a7,1,\n`);
    answers = allGood();
    expect((await runCli(['run', '-d', other, '--base-url', server.url, '--agent', 'other', '-o', join(dir, 'other'), '--format', 'json'], env)).code).toBe(0);
    const sent = server.received.length;
    const refused = await run('x3', '--baseline', join(dir, 'other', 'report.json'), '--fail-on', 'regression');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(
      `answer-eval: cannot compare ${join(dir, 'other', 'report.json')} with this run:\n  - agent differs: "other" in ${join(dir, 'other', 'report.json')}, "demo" in this run\npass --force to compare them anyway\n`,
    );
    const missing = await run('x4', '--baseline', join(dir, 'nope.json'));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe(`answer-eval: ${join(dir, 'nope.json')}: cannot read the report: no such file\n`);
    expect(server.received.length).toBe(sent);
    expect(sent - before).toBe(9);
  });

  it('exit 3 when every question ended in error, even with the circuit breaker off, and when no question was asked', async () => {
    answers = Object.fromEntries(Object.keys(allGood()).map((q) => [q, '500']));
    const res = await run('all-errors', '--max-consecutive-errors', '0', '--max-error-rate', '1');
    expect(res.code).toBe(3);
    // the most common error is named, so nobody has to open results.csv to learn why
    expect(res.stderr).toMatch(
      /^answer-eval: nothing was measured: every one of the 8 questions ended in error \(see the error column of results.csv\); check --base-url, the service and --timeout\. The most common error \(8 of 8\): http: HTTP 500 from http:\/\/127\.0\.0\.1:\d+\/api\/v1\/answer: "boom"\n$/,
    );
    expect(res.stdout).not.toContain('gate');
    expect(existsSync(join(dir, 'all-errors', 'report.json'))).toBe(true);

    // a shard none of the 8 ids falls in
    const ids = ['a1', 'a2', 'a3', 'a4', 'a5', 'a6', 'f1', 'f2'];
    const empty = Array.from({ length: 40 }, (_, i) => i + 1).find((i) => ids.every((id) => !inShard(id, { index: i, count: 40 })))!;
    answers = allGood();
    const none = await run('empty-shard', '--shard', `${empty}/40`);
    expect(none.code).toBe(3);
    expect(none.stderr).toBe(`answer-eval: nothing was measured: no question was asked (shard ${empty}/40 holds none of the 8 questions of ${dataset}; use fewer shards than questions)\n`);
  });

  it('more than half in error is exit 3 (the circuit breaker trips only on errors in a row), unless --max-error-rate decides; fewer is a warning', async () => {
    answers = { ...allGood(), 'q a1': '500', 'q a2': '500', 'q a3': '500', 'q f1': '500', 'q f2': '500' }; // 5 of 8
    const most = await run('most-errors');
    expect(most.code).toBe(3);
    expect(most.stderr).toContain('answer-eval: too little was measured: 5 of the 8 questions (62.5%) ended in error, more than half, so the figures rest on the 3 the service answered');
    expect(readFileSync(join(dir, 'most-errors', 'summary.md'), 'utf8')).toMatch(/^\*\*⚠️ Too little was measured: 5 of the 8 questions/);
    const accepted = await run('most-errors-gated', '--max-error-rate', '0.7');
    expect([accepted.code, accepted.stderr]).toEqual([0, '']);
    expect(accepted.stdout).toContain('gate passed: error rate 0.625 <= --max-error-rate 0.7');

    answers = { ...allGood(), 'q a1': '500' };
    const few = await run('few-errors');
    expect(few.code).toBe(0);
    expect(few.stderr).toBe(`answer-eval: warning: 1 of 8 questions (12.5%) ended in error: left out of the figures, not counted as wrong; --max-error-rate gates them, and answer-eval run --resume ${join(dir, 'few-errors')} --rerun errors asks them again\n`);
  });

  it('a run stopped by the circuit breaker says how to finish it once the service is back: its errors asked again', async () => {
    answers = Object.fromEntries(Object.keys(allGood()).map((q) => [q, '500']));
    const out = join(dir, 'breaker');
    const res = await run('breaker', '--max-consecutive-errors', '2', '-c', '1');
    expect(res.code).toBe(3);
    expect(res.stderr).toContain(`answer-eval: once the service answers again, continue with: answer-eval run --resume ${out} --rerun errors\n`);
    expect(readFileSync(join(out, 'summary.md'), 'utf8')).toContain('`answer-eval run --resume DIR --rerun errors` finishes it, with its gates.');
    answers = allGood();
    const resumed = await runCli(['run', '--resume', out, '--rerun', 'errors', '--base-url', server.url, '-q'], env);
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain('error 0');
  });

  it('exit 3 when the run cannot complete, even with gates that would fail', async () => {
    const res = await runCli(['run', '-d', dataset, '--base-url', server.url, '--agent', 'demo', '-o', join(dir, 'x5'), '--min-accuracy', '1'], { ANSWER_AGENT_CODE: 'wrong' });
    expect(res.code).toBe(3);
    expect(res.stderr).toContain('is not authorized');
    expect(res.stderr).not.toContain('gate');
  });
});
