import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { TrendSchema } from '../../src/trend/schema.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

// Three nightly runs of the sample set on the embedded engine, and one `rescore --floor 70` of the last: a what-if.
// At floor 70 many answers the engine gives right are dropped, so taken for a night of history the what-if would be
// the latest run and bring dozens of "new failures". The trend counts three runs, names the what-if it left out,
// and shown with --include-what-ifs it is marked and still counts for nothing the gates judge.

const dir = tempDir('answer-eval-what-ifs-');
const nights = join(dir, 'nights');
const night = (n: number): string => join(nights, `night-${n}`);
const whatIf = join(nights, 'night-3-floor-70');

const trendJson = (out: string) => TrendSchema.parse(JSON.parse(readFileSync(join(out, 'trend.json'), 'utf8')));

beforeAll(async () => {
  for (const n of [1, 2, 3]) expect((await runCli(['run', '-o', night(n), '--quiet', '--format', 'json'])).code).toBe(0);
  const rescored = await runCli(['rescore', night(3), '-o', whatIf, '--floor', '70', '--format', 'json']);
  expect(rescored.code, rescored.stderr).toBe(0);
}, 120_000);

describe('trend over three runs and a what-if', () => {
  it('reports three runs, leaves the what-if out and names it on stderr and in every file', async () => {
    const out = join(dir, 'trend');
    const res = await runCli(['trend', nights, '-o', out, '--max-new-failures', '0']);
    expect(res.stderr).toBe(
      `answer-eval: 1 report written by rescore left out of the trend (a run judged again is not a night of history; --include-what-ifs shows them, marked):\n` +
        `  ${join(whatIf, 'report.json')} (rescore of ${join(night(3), 'report.json')}: floor 70)\n`,
    );
    expect(res.code).toBe(0); // the same engine three times: no new failure
    expect(res.stdout).toMatch(/^answer-eval trend: 3 runs \(1 what-if left out\), 113 questions; latest run: \d+ failing \(0 new\), 0 flaky\n/);

    const trend = trendJson(out);
    expect(trend.runs.map((r) => r.path)).toEqual([1, 2, 3].map((n) => join(night(n), 'report.json')));
    expect(trend.whatIfs).toEqual({ included: false, runs: [{ path: join(whatIf, 'report.json'), from: join(night(3), 'report.json'), what: 'floor 70' }] });
    expect(trend.gates).toMatchObject([{ gate: '--max-new-failures', value: 0, passed: true }]);

    const md = readFileSync(join(out, 'trend.md'), 'utf8');
    expect(md).toContain('### answer-eval trend · 3 runs (1 what-if left out)');
    expect(md).toContain(`- ${join(whatIf, 'report.json')}: rescore of ${join(night(3), 'report.json')}, floor 70`);
    const html = readFileSync(join(out, 'trend.html'), 'utf8');
    expect(html).toContain('<title>answer-eval trend · 3 runs (1 what-if left out)</title>');
    expect(html).toContain(`<li><code>${join(whatIf, 'report.json')}</code>: rescore of <code>${join(night(3), 'report.json')}</code>, floor 70</li>`);
  });

  it('with --include-what-ifs shows it marked, after its run, and still counts only the real runs', async () => {
    const out = join(dir, 'trend-with');
    const res = await runCli(['trend', nights, '-o', out, '--include-what-ifs', '--max-new-failures', '0']);
    expect(res.code, res.stdout).toBe(0);
    expect(res.stdout).toMatch(/^answer-eval trend: 3 runs \(1 what-if shown apart\), 113 questions; latest run: \d+ failing \(0 new\), 0 flaky\n/);
    expect(res.stderr).toContain('1 report written by rescore shown among the runs as what-ifs (--include-what-ifs)');

    const trend = trendJson(out);
    expect(trend.runs.map((r) => [r.path, r.rescored])).toEqual([
      [join(night(1), 'report.json'), false],
      [join(night(2), 'report.json'), false],
      [join(night(3), 'report.json'), false],
      [join(whatIf, 'report.json'), true],
    ]);
    expect(trend.runs[3]!.whatIf).toEqual({ from: join(night(3), 'report.json'), what: 'floor 70' });
    // the floor drops right answers: the what-if's own figure is lower, yet nothing it failed is counted
    expect(trend.runs[3]!.figures.top1Accuracy.value!).toBeLessThan(trend.runs[2]!.figures.top1Accuracy.value! - 0.1);
    expect(trend.failing.every((q) => !q.newFailure && q.failingSince < 3)).toBe(true);
    const without = trendJson(join(dir, 'trend'));
    expect(trend.failing).toEqual(without.failing);

    const html = readFileSync(join(out, 'trend.html'), 'utf8');
    expect(html).toContain('<span class="badge whatif" title="rescore of');
    expect(html).toMatch(/<circle class="dot whatif"/);
    expect(readFileSync(join(out, 'trend.md'), 'utf8')).toContain('### answer-eval trend · 3 runs (1 what-if shown apart)');
  });

  it('a what-if alone is no history: exit 2, saying so', async () => {
    const res = await runCli(['trend', whatIf, '-o', join(dir, 'alone')]);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('the one report that can be read was written by answer-eval rescore (what-ifs of a run): a history needs at least one real run');
  });
});
