import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { NODE_WARNING, runCliProcess } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

// Every other test runs the CLI in-process (test/helpers/cli.ts runCli). These run each command once as the process a
// user starts, the built bundle (dist/cli/main.js, build-cli.mjs): that it loads each command's chunk, finds the
// package's files from there (the sample, the page scripts, package.json), and that Node prints no warning of its own.
const dir = tempDir();

beforeAll(async () => {
  const res = await runCliProcess(['run', '-o', join(dir, 'base'), '-q']);
  expect(res.code, res.stderr).toBe(0);
}, 60_000);

describe('each command as a process of the built CLI', () => {
  const cases: [string, () => string[], number][] = [
    ['--version', () => ['--version'], 0],
    ['--help', () => ['--help'], 0],
    ['validate', () => ['validate', '-d', 'datasets/sample/questions.csv'], 0],
    ['report', () => ['report', '--from', join(dir, 'base'), '-o', join(dir, 'report'), '--format', 'html'], 0],
    ['compare', () => ['compare', join(dir, 'base'), join(dir, 'base'), '-o', join(dir, 'compare')], 0],
    ['rescore', () => ['rescore', join(dir, 'base'), '-o', join(dir, 'rescore'), '--floor', '40'], 0],
    ['merge', () => ['merge', join(dir, 'base'), '-o', join(dir, 'merge'), '--allow-partial'], 0],
    ['export', () => ['export', '--from', join(dir, 'base'), '-o', join(dir, 'export')], 0],
    ['trend', () => ['trend', join(dir, 'base'), '-o', join(dir, 'trend')], 0],
    ['an unknown command', () => ['nonsense'], 2],
  ];
  for (const [name, args, code] of cases) {
    it(`${name}: exit ${code}, no Node warning, no internal error`, async () => {
      const res = await runCliProcess(args());
      expect(res.code, res.stderr).toBe(code);
      expect(res.stderr).not.toMatch(NODE_WARNING);
      expect(res.stderr).not.toContain('internal error');
    });
  }

  it('run wrote report.html with its page script, found from the bundle', () => {
    expect(existsSync(join(dir, 'report', 'report.html'))).toBe(true);
  });
});
