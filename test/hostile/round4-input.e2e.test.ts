import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli, spawnCli } from '../helpers/cli.js';
import { tempDir, writeTemp } from '../helpers/tmp.js';
import { many, report, result } from '../compare/fixtures.js';
import { writeNight } from '../helpers/nights.js';

// Issue 41, item 9 (a-c): a CSV header of 100,000 columns, a --quarantine that is /dev/zero or a FIFO, a row value of
// 100,000 characters. Each is a clear, bounded answer: an error naming the file and line, a notice while waiting, a
// quoted value cut short.

const dir = tempDir('answer-eval-round4-input-');
const BIG = 'Z'.repeat(100_000);
const reports: string[] = [];

beforeAll(async () => {
  for (const [day, outcome] of [[1, 'correct'], [2, 'wrong']] as const) {
    const r = report([...many('a', 3, 'correct'), result('w', outcome, 2)]);
    const out = await writeNight(dir, `n${day}`, day, r);
    reports.push(join(out, 'report.json'));
  }
});

/** Every line of a CLI's output, no longer than a message that quotes values cut short. */
const longestLine = (...texts: string[]): number => Math.max(...texts.flatMap((t) => t.split('\n')).map((l) => l.length));

describe('a header of 100,000 columns (issue 41, item 9a)', () => {
  it('is refused at once, naming the file, the line and the bound; so is a JSONL row of more keys than that', async () => {
    const names = ['id', 'question', 'expected_answer', ...Array.from({ length: 100_000 }, (_, i) => `c${i}`)];
    const csv = writeTemp(dir, 'wide.csv', `${names.join(',')}\n${Array.from({ length: 5 }, (_, r) => ['a' + r, 'q?', 'x', ...Array(100_000).fill('v')].join(',')).join('\n')}\n`);
    const started = performance.now();
    const res = await runCli(['validate', '-d', csv]);
    expect(res.code, res.stderr).toBe(2);
    expect(res.stdout).toContain(`${csv}:1: error: the header has 100,003 columns: a dataset has at most 1,000 (its known columns, and columns of its own: at most 20 are kept as metadata)`);
    expect(performance.now() - started).toBeLessThan(20_000);
    expect(longestLine(res.stdout, res.stderr)).toBeLessThan(1_000);

    const keys = Object.fromEntries([['question', 'q?'], ...Array.from({ length: 1_500 }, (_, i) => [`k${i}`, 'v'])]);
    const jsonl = writeTemp(dir, 'wide.jsonl', `${JSON.stringify({ question: 'fine?' })}\n${JSON.stringify(keys)}\n`);
    const row = await runCli(['validate', '-d', jsonl]);
    expect(row.code).toBe(2);
    expect(row.stdout).toContain(`${jsonl}:2: error: the row has 1,501 keys: a dataset has at most 1,000 columns`);
  });
});

describe('--quarantine read bounded (issue 41, item 9b)', () => {
  it('/dev/zero is refused at once as no text file (exit 2)', async () => {
    const started = performance.now();
    const res = await runCli(['compare', reports[0]!, reports[1]!, '-o', join(dir, 'cmp-zero'), '--quarantine', '/dev/zero']);
    expect([res.code, res.stderr]).toEqual([2, 'answer-eval: --quarantine /dev/zero:1: holds a NUL byte at byte 0: not a text file (expected a text file of question ids, one a line, such as the quarantine.txt trend or run --repeat writes)\n']);
    expect(performance.now() - started).toBeLessThan(20_000);
  });

  it('a FIFO: the wait is said, and the ids written into it are read', async () => {
    const fifo = join(dir, 'quarantine.fifo');
    execFileSync('mkfifo', [fifo]);
    const cli = spawnCli(['compare', reports[0]!, reports[1]!, '-o', join(dir, 'cmp-fifo'), '--quarantine', fifo]);
    const until = performance.now() + 20_000;
    while (!cli.output().stderr.includes('waiting for') && performance.now() < until) await new Promise((r) => setTimeout(r, 50));
    expect(cli.output().stderr).toContain(`answer-eval: waiting for ${fifo}: nothing has come from it for 3 s (a pipe that nobody writes to? Ctrl-C stops)\n`);
    writeFileSync(fifo, 'w  # flaky\n'); // opens the FIFO for writing: the reader gets it, then its end
    const done = await cli.exited;
    expect(done.code, done.stderr).toBe(0);
  });
});

describe('a value of 100,000 characters in a row (issue 41, item 9c)', () => {
  it('is quoted cut short in every message, ending in …', async () => {
    const header = 'id,question,expected_answer,output,language,force_subscription,expect,expected_sequence,expected_label,tags';
    const rows = [
      `a,q1,x,${BIG},en,0,,,,`,
      `b,q2,x,json,${BIG},0,,,,`,
      `c,q3,x,json,en,${BIG},,,,`,
      `d,q4,x,json,en,0,${BIG},,,`,
      `e,q5,x,json,en,0,,${BIG},,`,
      `f,q6,x,json,en,0,,,"re:(${BIG}",`,
      `g,q7,x,json,en,0,,,"${BIG}||",`,
      `${BIG},q8,x,json,en,0,,,,`,
      `${BIG},q9,x,json,en,0,,,,`,
      `h\n${BIG},q10,x,json,en,0,,,,`,
    ];
    const csv = writeTemp(dir, 'values.csv', `${header}\n${rows.join('\n')}\n`);
    const res = await runCli(['validate', '-d', csv]);
    expect(res.code).toBe(2);
    expect(res.stdout.split('\n').filter((l) => l.includes(': error: ')).length).toBeGreaterThanOrEqual(9);
    expect(longestLine(res.stdout, res.stderr)).toBeLessThan(600);
    expect(res.stdout).toContain(`"${'Z'.repeat(79)}…"`);

    const jsonl = writeTemp(dir, 'keys.jsonl', `${JSON.stringify({ question: 'q', [`expected_${BIG}`]: 'x', [BIG]: 'y', tags: [{ [BIG]: 1 }] })}\n${JSON.stringify({ question: 'q2', expected_label: { a: BIG } })}\n`);
    const keys = await runCli(['validate', '-d', jsonl]);
    expect(keys.code).toBe(2);
    expect(longestLine(keys.stdout, keys.stderr)).toBeLessThan(800);
  });

  it('a label of 100,000 characters that no answer has is named cut short after a run', async () => {
    const csv = writeTemp(dir, 'label.csv', `id,question,expected_label\na,How do I pay my bill?,${BIG}\n`);
    const res = await runCli(['run', '-d', csv, '-o', join(dir, 'label-run')]);
    expect(res.stderr).toMatch(/expected_label "Z{79}…": no label in the knowledge base matches it/);
    expect(longestLine(res.stdout, res.stderr)).toBeLessThan(1_000);
  });
});
