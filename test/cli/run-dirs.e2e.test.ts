import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { tempDir, writeTemp } from '../helpers/tmp.js';

// A run's output directory is what a user has at hand (trend and merge take directories): every command that reads
// a report.json takes the directory too, and one without a report.json says what it holds, never a stack trace.

const dir = tempDir('answer-eval-run-dirs-');
const base = join(dir, 'base');
const head = join(dir, 'head');

beforeAll(async () => {
  const questions = writeTemp(dir, 'q.csv', 'id,question,expected_label\nq1,hello there,greeting\nq2,how can I pay my bill?,payment_methods\n');
  for (const out of [base, head]) expect((await runCli(['run', '-d', questions, '-o', out, '--quiet'])).code).toBe(0);
}, 60_000);

const noTrace = (stderr: string): void => {
  expect(stderr).not.toMatch(/internal error|\n\s+at /);
};

describe('a run directory where a report.json is expected', () => {
  it('compare BASE_DIR HEAD_DIR compares their report.json files', async () => {
    const res = await runCli(['compare', base, head, '-o', join(dir, 'cmp')]);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain(`Compare: ${base} -> ${head}`);
    expect(existsSync(join(dir, 'cmp', 'compare.json'))).toBe(true);
  });

  it('run --baseline DIR compares with the report.json in it', async () => {
    const out = join(dir, 'with-baseline');
    const res = await runCli(['run', '-d', join(dir, 'q.csv'), '-o', out, '--quiet', '--baseline', base, '--fail-on', 'regression']);
    expect(res.code).toBe(0);
    expect(JSON.parse(readFileSync(join(out, 'compare.json'), 'utf8'))).toMatchObject({ counts: { common: 2, broken: 0 } });
  });

  it('report --from DIR writes beside that report.json (in DIR), its own report.json last', async () => {
    const before = readFileSync(join(base, 'report.json'), 'utf8');
    const res = await runCli(['report', '--from', base]);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain(join(base, 'report.html'));
    expect(existsSync(join(dir, 'report.html'))).toBe(false);
    expect(JSON.parse(readFileSync(join(base, 'report.json'), 'utf8')).results).toEqual(JSON.parse(before).results);
  });

  it('export --from DIR writes run.trec and qrels.trec into DIR', async () => {
    const res = await runCli(['export', '--from', head]);
    expect(res.code).toBe(0);
    expect(readFileSync(join(head, 'run.trec'), 'utf8').split('\n')[0]).toMatch(/^q1 Q0 /);
  });

  it('a directory without report.json: exit 2, saying what it holds and what to do', async () => {
    const empty = join(dir, 'empty');
    mkdirSync(empty);
    const res = await runCli(['compare', empty, head]);
    expect(res.code).toBe(2);
    expect(res.stderr.trim()).toBe(`answer-eval: ${empty}: a directory without report.json; expected a report.json written by answer-eval, or the directory a run wrote it to (-o)`);

    const crashed = join(dir, 'crashed');
    mkdirSync(crashed);
    writeFileSync(join(crashed, 'journal.jsonl'), '');
    for (const args of [['report', '--from', crashed], ['export', '--from', crashed], ['rescore', crashed, '-o', join(dir, 'r')], ['run', '-d', join(dir, 'q.csv'), '-o', join(dir, 'b'), '--baseline', crashed], ['merge', crashed]]) {
      const r = await runCli(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toContain(`${crashed}: a run directory without report.json (the run stopped before writing its reports); answer-eval run --resume ${crashed} finishes it`);
      noTrace(r.stderr);
    }
  });

  it('a directory given for a file (--kb, --aliases, --dataset): exit 2, dir: is a directory, no stack trace', async () => {
    for (const [flag, expected] of [['--kb', 'a .csv or .jsonl file'], ['--aliases', 'a CSV of old,new sequence numbers']] as const) {
      const r = await runCli(['run', '-d', join(dir, 'q.csv'), flag, dir, '-o', join(dir, `flag${flag}`), '--quiet']);
      expect(r.code, flag).toBe(2);
      expect(r.stderr).toBe(`answer-eval: ${dir}: is a directory (expected ${expected})\n`);
    }
    const v = await runCli(['validate', '-d', join(dir, 'q.csv'), '--kb', dir]);
    expect(v.code).toBe(2);
    expect(v.stderr).toBe(`answer-eval: ${dir}: is a directory (expected a .jsonl or .csv knowledge base)\n`);
  });

  it('compare BASE_DIR HEAD_DIR without --out writes into HEAD_DIR, not its parent', async () => {
    const res = await runCli(['compare', base, head]);
    expect(res.code).toBe(0);
    expect(existsSync(join(head, 'compare.json'))).toBe(true);
    expect(existsSync(join(dir, 'compare.json'))).toBe(false);
  });

  it('an --out that cannot be a directory: exit 2 naming it, for every command that writes one', async () => {
    const file = writeTemp(dir, 'a-file', 'x');
    for (const args of [['compare', base, head], ['export', '--from', base], ['trend', base], ['report', '--from', base], ['merge', base], ['rescore', base]]) {
      const r = await runCli([...args, '-o', join(file, 'out')]);
      expect(r.code, args[0]).toBe(2);
      expect(r.stderr, args[0]).toContain(`${join(file, 'out')}`);
      expect(r.stderr, args[0]).toMatch(/lies below .*a-file, which is a file, not a directory|cannot be created/);
      noTrace(r.stderr);
    }
  });

  it('rescore --floor quotes what was typed when it is no number', async () => {
    const r = await runCli(['rescore', base, '-o', join(dir, 'rescored'), '--floor', 'abc']);
    expect([r.code, r.stderr]).toEqual([2, 'answer-eval: --floor must be a number, got "abc"\n']);
  });
});
