import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { tempDir, writeTemp } from '../helpers/tmp.js';

// A question set without an id column names its questions by their line. A pull request that deletes one row then
// renamed every question after it: compare listed them as changed, judged by no gate, and passed a regression
// without a word. Now the run warns before asking, and the comparison says why its lists are what they are.

const dir = tempDir('answer-eval-line-ids-');
const rows = ['hello there,greeting', 'how can I pay my bill?,payment_methods', 'my meter reading is wrong,meter_reading', 'thanks,thanks'];
const csv = (kept: string[]): string => `question,expected_label\n${kept.join('\n')}\n`;

describe('a dataset without an id column', () => {
  it('is warned of before asking, and a comparison across a deleted row says its questions were renamed', async () => {
    const before = writeTemp(dir, 'before.csv', csv(rows));
    const after = writeTemp(dir, 'after.csv', csv(rows.slice(1)));
    const base = await runCli(['run', '-d', before, '-o', join(dir, 'base'), '--quiet']);
    expect(base.code).toBe(0);
    expect(base.stderr).toContain(`answer-eval: warning: ${before} has no id column: its questions are named by their line.`);
    const report = JSON.parse(readFileSync(join(dir, 'base', 'report.json'), 'utf8')) as { run: { dataset: { ids?: string } } };
    expect(report.run.dataset.ids).toBe('line');

    const head = await runCli(['run', '-d', after, '-o', join(dir, 'head'), '--baseline', join(dir, 'base'), '--fail-on', 'regression', '--quiet']);
    expect(head.code).toBe(1); // the gate cannot pass on questions it cannot pair
    expect(head.stdout).toContain('gate FAILED: --fail-on regression cannot be judged: ');
    expect(head.stdout).toMatch(/warning: neither dataset has an id column, so their questions are named by their line: a row added or removed renames every question after it, and \d+ questions were taken as added, removed or changed/);
    expect(readFileSync(join(dir, 'head', 'compare.md'), 'utf8')).toContain('⚠️ neither dataset has an id column');

    const withIds = writeTemp(dir, 'ids.csv', `id,question,expected_label\n${rows.map((r, i) => `q${i},${r}`).join('\n')}\n`);
    const quiet = await runCli(['run', '-d', withIds, '-o', join(dir, 'ids'), '--quiet']);
    expect(quiet.code).toBe(0);
    expect(quiet.stderr).not.toContain('no id column');
  });
});
