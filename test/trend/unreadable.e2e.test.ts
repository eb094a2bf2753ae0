import { copyFileSync, mkdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { TrendSchema } from '../../src/trend/schema.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

// Three nights of the embedded engine under hist/; one report.json is then cut off, as a full disk leaves it.
const dir = tempDir('answer-eval-trend-cut-');
const hist = join(dir, 'hist');
const night = (n: number) => join(hist, `n${n}`);
const report = (n: number) => join(night(n), 'report.json');
const trendRuns = (out: string) => TrendSchema.parse(JSON.parse(readFileSync(join(out, 'trend.json'), 'utf8'))).runs.map((r) => r.path);

beforeAll(async () => {
  for (const n of [1, 2, 3]) {
    const res = await runCli(['run', '-o', night(n), '--format', 'json', '-q']);
    expect([res.code, res.stderr]).toEqual([0, '']);
  }
}, 60_000);

describe('trend over nights, one report.json cut off', () => {
  it('leaves that run out with a warning naming it and why, goes on with the others; its advice writes it again', async () => {
    const whole = readFileSync(report(3));
    truncateSync(report(3), Math.floor(whole.length * 0.6));
    const out = join(dir, 'trend');
    const res = await runCli(['trend', hist, '-o', out, '--format', 'json']);
    expect(res.code).toBe(0);
    expect(res.stderr).toMatch(
      new RegExp(
        `^answer-eval: warning: ${report(3)} is left out of the trend: cut off: the file ends before its results close, after \\d+ results \\(.*\\); ` +
          `answer-eval run --resume ${night(3)} writes it again from the run's journal\\n$`,
      ),
    );
    expect(res.stdout).toMatch(/^answer-eval trend: 2 runs \(1 left out, see above\), 113 questions/);
    expect(trendRuns(out)).toEqual([report(1), report(2)]);
    // and in the files written, not only on stderr
    const left = TrendSchema.parse(JSON.parse(readFileSync(join(out, 'trend.json'), 'utf8'))).leftOut;
    expect(left).toEqual([{ path: report(3), why: expect.stringMatching(/^cut off: the file ends before its results close/) }]);
    const md = await runCli(['trend', hist, '-o', out, '--format', 'md,html']);
    expect(readFileSync(join(out, 'trend.md'), 'utf8')).toContain('⚠️ **1 run left out:**');
    expect(readFileSync(join(out, 'trend.html'), 'utf8')).toMatch(/<div class="banner">Left out: <ul><li><code>[^<]+<\/code>: cut off: /);
    expect(md.code).toBe(0);

    // the advice: the journal holds every result, so the run's reports are written again without asking
    const resumed = await runCli(['run', '--resume', night(3), '--format', 'json', '-q']);
    expect([resumed.code, resumed.stderr]).toEqual([0, '']);
    const again = await runCli(['trend', hist, '-o', out, '--format', 'json']);
    expect([again.code, again.stderr]).toEqual([0, '']);
    expect(trendRuns(out)).toEqual([report(1), report(2), report(3)]);
  });

  it('a report in another layout: the warning says how to write it again, and that works', async () => {
    const text = readFileSync(report(2), 'utf8');
    writeFileSync(report(2), text.replace(/\n {2}\]\n\}\n$/, '\n  ],\n  "note": "edited by hand"\n}\n'));
    const out = join(dir, 'trend-layout');
    const res = await runCli(['trend', hist, '-o', out, '--format', 'json']);
    expect(res.code).toBe(0);
    const advice = `answer-eval report --from ${report(2)} --format json`;
    expect(res.stderr).toContain(`answer-eval: warning: ${report(2)} is left out of the trend: the results leave the layout answer-eval writes`);
    expect(res.stderr).toContain(`; ${advice} writes it again in that layout\n`);
    expect((await runCli(advice.split(' ').slice(1))).code).toBe(0);
    const again = await runCli(['trend', hist, '-o', out, '--format', 'json']);
    expect([again.code, again.stderr]).toEqual([0, '']);
    expect(trendRuns(out)).toHaveLength(3);
  });

  it('a night that died before writing its reports (a journal, no report.json) is named, with how to finish it', async () => {
    const died = join(hist, 'n4');
    mkdirSync(died);
    copyFileSync(join(night(1), 'journal.jsonl'), join(died, 'journal.jsonl'));
    const res = await runCli(['trend', hist, '-o', join(dir, 'trend-died'), '--format', 'json']);
    expect(res.code).toBe(0);
    expect(res.stderr).toBe(
      `answer-eval: warning: ${died} is left out of the trend: it holds a run's journal but no report.json (the run died before writing its reports); answer-eval run --resume ${died} finishes it\n`,
    );
    expect(res.stdout).toMatch(/^answer-eval trend: 3 runs \(1 left out, see above\)/);
    // named directly, among the others: the same warning, not a refusal
    const named = await runCli(['trend', night(1), night(2), died, '-o', join(dir, 'trend-named'), '--format', 'json']);
    expect([named.code, named.stderr]).toEqual([0, res.stderr]);
    const alone = await runCli(['trend', died, '-o', join(dir, 'trend-alone'), '--format', 'json']);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toBe(`${res.stderr}answer-eval: no run to follow: none of ${died} holds a finished run (report.json)\n`);
    rmSync(died, { recursive: true });
  });

  it('exits 2 when no run can be read, each named', async () => {
    for (const n of [1, 2, 3]) truncateSync(report(n), 4000);
    const res = await runCli(['trend', hist, '-o', join(dir, 'trend-none'), '--format', 'json']);
    expect(res.code).toBe(2);
    const lines = res.stderr.trimEnd().split('\n');
    expect(lines.slice(0, 3).map((l) => l.slice(0, l.indexOf(' is left out')))).toEqual([1, 2, 3].map((n) => `answer-eval: warning: ${report(n)}`));
    expect(lines[3]).toBe('answer-eval: trend: none of the 3 runs given can be read (each is named above, with why)');
  });
});
