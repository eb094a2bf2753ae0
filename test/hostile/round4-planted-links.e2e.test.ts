import { lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { COMPARE_JUNIT_FILE } from '../../src/compare/render/junit.js';
import { RUN_FILES } from '../../src/job/overwrite.js';
import { TREND_FORMATS } from '../../src/trend/render/index.js';
import { runCli } from '../helpers/cli.js';
import { tempDir, writeTemp } from '../helpers/tmp.js';
import { many, report, result } from '../compare/fixtures.js';
import { writeNight } from '../helpers/nights.js';

// Issue 41, item 7: links planted under the names of answer-eval's temporary files (`report.json.tmp`, ...) in the
// directory it writes into were followed: `trend --out`, `compare --out` and a fresh `run -o` wrote their reports
// through them into files outside. Every temporary file is now created exclusively (never through a link), then
// renamed over its name (which replaces a link there rather than follows it).

const dir = tempDir('answer-eval-round4-links-');
const outside = join(dir, 'outside');
mkdirSync(outside);
const nights: string[] = [];

beforeAll(async () => {
  for (const [day, outcome] of [[1, 'correct'], [2, 'wrong']] as const) {
    const r = report([...many('a', 4, 'correct'), result('w', outcome, 2)]);
    const out = await writeNight(dir, `n${day}`, day, r);
    nights.push(out);
  }
});

/** Every temporary name answer-eval may write in a directory, linked to a file outside it; returns the victims. */
function plant(into: string, names: readonly string[]): string[] {
  mkdirSync(into, { recursive: true });
  return names.flatMap((name) =>
    [`${name}.tmp`, `${name}.parts.tmp`].map((tmp) => {
      const victim = join(outside, `${into.replace(/\W/g, '_')}-${tmp}`);
      writeFileSync(victim, 'VICTIM\n');
      symlinkSync(victim, join(into, tmp));
      return victim;
    }),
  );
}

const FILES = [...new Set([...RUN_FILES, ...Object.values(TREND_FORMATS).map((f) => f.file), COMPARE_JUNIT_FILE])];

function expectUntouched(victims: string[], out: string, written: string[]): void {
  for (const victim of victims) expect(readFileSync(victim, 'utf8'), victim).toBe('VICTIM\n');
  for (const file of written) {
    expect(lstatSync(join(out, file)).isFile(), file).toBe(true);
    expect(readFileSync(join(out, file), 'utf8'), file).not.toBe('VICTIM\n');
  }
  // the links are left as they were: never written through, never followed
  for (const name of readdirSync(out).filter((n) => n.endsWith('.tmp'))) expect(lstatSync(join(out, name)).isSymbolicLink(), name).toBe(true);
}

describe('links planted under temporary names are never written through (issue 41, item 7)', () => {
  it('trend --out', async () => {
    const out = join(dir, 'trend-out');
    const victims = plant(out, FILES);
    const res = await runCli(['trend', ...nights, '-o', out]);
    expect(res.code, res.stderr).toBe(0);
    expectUntouched(victims, out, ['trend.html', 'trend.md', 'trend.json']);
  });

  it('compare --out (compare.junit.xml\'s parts file is temporary too)', async () => {
    const out = join(dir, 'compare-out');
    const victims = plant(out, FILES);
    const res = await runCli(['compare', join(nights[0]!, 'report.json'), join(nights[1]!, 'report.json'), '-o', out]);
    expect([0, 1], res.stderr).toContain(res.code);
    expectUntouched(victims, out, ['compare.json', 'compare.html', 'compare.md', 'changes.jsonl', COMPARE_JUNIT_FILE]);
  });

  it('a fresh run -o', async () => {
    const out = join(dir, 'run-out');
    const victims = plant(out, FILES);
    const dataset = writeTemp(dir, 'q.csv', 'id,question,expected_answer\na,How do I pay my bill?,anything\n');
    const res = await runCli(['run', '-d', dataset, '-o', out, '--min-accuracy', '0.1']);
    expect([0, 1], res.stderr).toContain(res.code);
    expectUntouched(victims, out, ['journal.jsonl', 'run-options.json', 'report.json', 'report.html', 'results.csv', 'junit.xml', 'summary.md']);
  });
});
