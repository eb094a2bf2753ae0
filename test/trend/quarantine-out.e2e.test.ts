import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { many, report, result } from '../compare/fixtures.js';
import { writeNight } from '../helpers/nights.js';

// trend --out writes quarantine.txt beside trend.*: it writes over the one it wrote there itself, unchanged, as
// running trend again would write it, and refuses (exit 2, nothing written) any other: a file reviewed by hand, or
// the one `run --repeat` wrote into its run directory.

const dir = tempDir('answer-eval-trend-quarantine-');
const nights: string[] = [];

beforeAll(async () => {
  // w flips every night: a flaky question, so quarantine.txt lists it
  for (const [day, outcome] of [[1, 'correct'], [2, 'wrong'], [3, 'correct']] as const) {
    const r = report([...many('a', 4, 'correct'), result('w', outcome, 2)]);
    const out = await writeNight(dir, `n${day}`, day, r);
    nights.push(out);
  }
});

const trend = (out: string, ...more: string[]) => runCli(['trend', ...nights, '-o', out, ...more]);
const quarantine = (out: string) => join(out, 'quarantine.txt');
const refusal = (out: string) =>
  `answer-eval: --out ${out} holds ${quarantine(out)}, which trend did not write or which was changed since (reviewed by hand? written by run --repeat?); nothing was written. ` +
  `To keep it: choose another --out, or leave quarantine out of --format (e.g. --format html,md,json). To replace it: delete it.\n`;

describe('trend --out and a quarantine.txt already there', () => {
  it('writes over the one trend wrote, unchanged: running trend again works', async () => {
    const out = join(dir, 'again');
    expect((await trend(out)).code).toBe(0);
    const first = readFileSync(quarantine(out), 'utf8');
    expect(first).toMatch(/^w {2}# flaky: /m);
    const again = await trend(out);
    expect([again.code, again.stderr]).toEqual([0, '']);
    expect(readFileSync(quarantine(out), 'utf8')).toBe(first);
  });

  it('refuses one written by hand (exit 2), leaving it and every other file as they were', async () => {
    const out = join(dir, 'hand');
    const hand = join(out, 'quarantine.txt');
    expect((await trend(out, '--format', 'json')).code).toBe(0); // trend.json from an earlier trend
    const before = readFileSync(join(out, 'trend.json'), 'utf8');
    writeFileSync(hand, '# reviewed by hand\nq041  # flaky\n');
    const res = await trend(out);
    expect(res.code).toBe(2);
    expect(res.stderr).toBe(refusal(out));
    expect(res.stdout).toBe('');
    expect(readFileSync(hand, 'utf8')).toBe('# reviewed by hand\nq041  # flaky\n');
    expect(readFileSync(join(out, 'trend.json'), 'utf8')).toBe(before);
    expect(existsSync(join(out, 'trend.html'))).toBe(false);

    // the ways out the message gives
    const without = await trend(out, '--format', 'html,md,json');
    expect([without.code, without.stderr]).toEqual([0, '']);
    expect(readFileSync(hand, 'utf8')).toBe('# reviewed by hand\nq041  # flaky\n');
    rmSync(hand);
    expect((await trend(out)).code).toBe(0);
    expect(readFileSync(hand, 'utf8')).toMatch(/^w {2}# flaky: /m);
  });

  it("refuses trend's own file once it was edited (a line taken out in review)", async () => {
    const out = join(dir, 'edited');
    expect((await trend(out)).code).toBe(0);
    const text = readFileSync(quarantine(out), 'utf8');
    const edited = text.replace(/^w {2}# flaky: .*\n/m, '');
    expect(edited).not.toBe(text);
    writeFileSync(quarantine(out), edited);
    const res = await trend(out);
    expect(res.code).toBe(2);
    expect(res.stderr).toBe(refusal(out));
    expect(readFileSync(quarantine(out), 'utf8')).toBe(edited);
  });

  it('refuses the one run --repeat wrote into a run directory given as --out', async () => {
    const out = join(dir, 'repeat');
    const r = await runCli(['run', '-o', out, '--format', 'json', '-q', '--repeat', '2']);
    expect(r.code, r.stderr).toBe(0);
    const written = readFileSync(quarantine(out), 'utf8');
    const res = await trend(out);
    expect(res.code).toBe(2);
    expect(res.stderr).toBe(refusal(out));
    expect(readFileSync(quarantine(out), 'utf8')).toBe(written);
  });
});
