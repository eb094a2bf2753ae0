import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { prRuns } from './pr-runs.js';

// The audit's repros (see prRuns): a report.json with a question id twice, or a result line deleted by hand, must be
// refused: a verdict on it would depend on which copy comes first, or on what was cut.
const dir = tempDir();
const { base, head, make } = prRuns(dir);
const compare = (b: string, h: string, out: string, ...args: string[]) => runCli(['compare', b, h, '--out', join(dir, out), '--resamples', '200', ...args]);
const text = (file: string) => readFileSync(file, 'utf8');
/** report.json's lines, 1-based: the line of the result of `id` (the first one). */
const lineOf = (file: string, id: string, from = 0): number => text(file).split('\n').findIndex((l, i) => i >= from && l.includes(`{"id":"${id}"`)) + 1;

/** `file` with the result line of `id` from `donor` put before its own: the id twice. */
function withCopy(file: string, donor: string, id: string, name: string): string {
  const copy = text(donor).split('\n').find((l) => l.includes(`{"id":"${id}"`))!.replace(/,$/, '');
  const out = join(dir, name, 'report.json');
  mkdirSync(join(dir, name), { recursive: true });
  writeFileSync(out, text(file).replace(/^ *\{"id":"q011".*$/m, (own) => `    ${copy.trim()},\n${own}`));
  return out;
}

beforeAll(async () => {
  await make();
  const plain = await compare(base, head, 'plain', '--fail-on', 'regression');
  expect(plain.code).toBe(1);
  expect(plain.stdout).toContain('gate FAILED: 1 broken question (q011) with --fail-on regression');
}, 60_000);

describe('a question id twice in a report.json', () => {
  it('is refused (exit 2) in HEAD whichever copy comes first, naming the file, the id and the lines; nothing is written', async () => {
    for (const [donor, name] of [[base, 'dup-good-first'], [head, 'dup-bad-first']] as const) {
      const twice = withCopy(head, donor, 'q011', name);
      const first = lineOf(twice, 'q011');
      const res = await compare(base, twice, `${name}-out`, '--fail-on', 'regression');
      expect(res.code, res.stdout).toBe(2);
      expect(res.stderr).toBe(
        `answer-eval: ${twice}: question id "q011" has more than one result, at lines ${first} and ${first + 1} (results[5] and results[6]): ` +
          'a report holds one result a question (a --repeat run keeps its other askings inside it), so its results were concatenated or edited, ' +
          'and compare cannot tell which one the run measured; compare the report.json the run wrote\n',
      );
      expect(res.stdout).toBe('');
      expect(existsSync(join(dir, `${name}-out`)) ? readdirSync(join(dir, `${name}-out`)) : []).toEqual([]);
    }
  });

  it('is refused in BASE, where it counted twice ("2 broken (q011, q011)")', async () => {
    const twice = withCopy(base, base, 'q011', 'dup-base');
    const res = await compare(twice, head, 'dup-base-out', '--fail-on', 'regression');
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(`answer-eval: ${twice}: question id "q011" has more than one result, at lines ${lineOf(twice, 'q011')} and ${lineOf(twice, 'q011') + 1} (results[5] and results[6])`);
  });

  it('is refused as run --baseline before anything is asked', async () => {
    const twice = withCopy(base, base, 'q011', 'dup-baseline');
    const out = join(dir, 'run-dup-baseline');
    const res = await runCli(['run', '-q', '-d', join(dir, 'pr.csv'), '-o', out, '--baseline', twice, '--fail-on', 'regression']);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(`answer-eval: ${twice}: question id "q011" has more than one result, at lines`);
    expect(existsSync(join(out, 'journal.jsonl'))).toBe(false);
  });
});

describe('a report.json whose results do not match its summary', () => {
  it('a result line deleted by hand (summary untouched) is a damaged report: exit 2', async () => {
    mkdirSync(join(dir, 'cut'));
    const cut = join(dir, 'cut', 'report.json');
    writeFileSync(cut, text(head).split('\n').filter((l) => !l.includes('{"id":"q003"')).join('\n'));
    const res = await compare(base, cut, 'cut-out', '--fail-on', 'regression');
    expect(res.code).toBe(2);
    expect(res.stderr).toBe(
      `answer-eval: ${cut}: holds 5 results but its summary counts 6 (summary.total): results were removed from it (or added to it) after the run wrote it, ` +
        'so it no longer says which questions the run measured; compare the report.json the run wrote\n',
    );
  });
});
