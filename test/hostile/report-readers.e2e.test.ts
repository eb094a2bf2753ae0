import { randomBytes } from 'node:crypto';
import { appendFileSync, closeSync, ftruncateSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS, limits } from '../../src/util/limits.js';
import { setLimitsForTests } from '../helpers/limits.js';
import { runCli, type CliResult } from '../helpers/cli.js';
import { runMeasured } from '../helpers/measure.js';
import { tempDir } from '../helpers/tmp.js';

// Issue 25, class 8: readers are linear. A report.json followed by hundreds of megabytes of NUL bytes or garbage
// (the gigabytes, scaled down for a test: the figures for 2 GB are in the branch's report) made every reader
// quadratic and over 1 GB of memory. Each reader must refuse it within seconds and in bounded memory, naming the file,
// the line and the byte where the report ends. The readers run in this process with the bounds lowered (a line, a
// report's head, a report read whole: util/limits.ts), each fixture just past the bound it meets; NUL bytes are sparse
// (no disk for them) and keep their hundreds of MB. One built CLI, with the bounds users have, shows time and memory.
const MiB = 1024 * 1024;
const dir = tempDir();
let report: string;
let text: string;
let restore: () => void;

beforeAll(async () => {
  const res = await runCli(['run', '-o', join(dir, 'base'), '--format', 'json', '-q']);
  expect(res.code, res.stderr).toBe(0);
  report = join(dir, 'base', 'report.json');
  text = readFileSync(report, 'utf8');
  restore = setLimitsForTests({ lineBytes: MiB, reportHeadBytes: MiB, wholeReportBytes: 4 * MiB });
}, 60_000);
afterAll(() => restore?.());

/** `head` (text) followed by `nuls` NUL bytes (sparse), then `more`. */
function file(name: string, head: string, nuls = 0, more?: Buffer): string {
  const path = join(dir, name);
  writeFileSync(path, head);
  if (nuls > 0) {
    const fd = openSync(path, 'r+');
    ftruncateSync(fd, Buffer.byteLength(head) + nuls);
    closeSync(fd);
  }
  if (more) appendFileSync(path, more);
  return path;
}

/** Every command that reads a report.json, reading `path` (as the base, or the one report it reads). */
const readers = (path: string): [string, string[]][] => [
  ['report --from', ['report', '--from', path, '-o', join(dir, 'r-out'), '--format', 'md']],
  ['compare (base)', ['compare', path, report, '-o', join(dir, 'c-out')]],
  ['compare (head)', ['compare', report, path, '-o', join(dir, 'c-out')]],
  ['export', ['export', '--from', path, '-o', join(dir, 'e-out')]],
  ['merge', ['merge', path, '-o', join(dir, 'm-out')]],
  ['rescore', ['rescore', path, '-o', join(dir, 's-out')]],
  ['trend', ['trend', path, '-o', join(dir, 't-out')]],
  ['run --baseline', ['run', '--baseline', path, '-o', join(dir, `b-out-${Math.random().toString(36).slice(2)}`), '-q']],
];

/** The CLI in this process, and its wall time. */
async function timed(args: string[]): Promise<CliResult & { ms: number }> {
  const started = performance.now();
  const res = await runCli(args);
  return { ...res, ms: performance.now() - started };
}

async function expectRefused(path: string, said: string | RegExp): Promise<void> {
  for (const [name, args] of readers(path)) {
    const res = await timed(args);
    expect(res.code, `${name}: ${res.stderr}`).toBe(2);
    if (typeof said === 'string') expect(res.stderr, name).toContain(said);
    else expect(res.stderr, name).toMatch(said);
    expect(res.stderr, name).not.toMatch(/internal error/);
    expect(res.ms, name).toBeLessThan(20_000);
  }
}

describe('a report.json followed by what no report holds', () => {
  it('the bounds users have: a line of 64 MiB, a head of 64 MiB, a report read whole of 256 MiB', () => {
    expect(DEFAULT_LIMITS).toMatchObject({ lineBytes: 64 * MiB, reportHeadBytes: 64 * MiB, wholeReportBytes: 256 * MiB });
    expect(limits).toMatchObject({ lineBytes: MiB, reportHeadBytes: MiB, wholeReportBytes: 4 * MiB }); // this file's
  });

  it('200 MB of NUL bytes after its end: every reader names the byte the report ends at, and how to keep it', async () => {
    const path = file('nul.json', text, 200 * MiB);
    const lines = text.split('\n').length;
    await expectRefused(path, `${path}:${lines}: NUL bytes (padding, e.g. left by a crash) after the end of the report, from byte ${Buffer.byteLength(text)}: the report itself is whole; truncate -s ${Buffer.byteLength(text)} ${path} keeps only the report`);
  }, 120_000);

  it('random bytes after its end, past every bound in force: the same, read no further than their first byte', async () => {
    const garbage = randomBytes(limits.wholeReportBytes + MiB);
    garbage[0] = 0x41; // begins with text: not told apart as NUL padding
    const path = file('garbage.json', text, 0, garbage);
    await expectRefused(path, new RegExp(`${path}:\\d+: more data \\("A"\\.\\.\\.: another file joined to it, or garbage\\) after the end of the report, from byte ${Buffer.byteLength(text)}`));
  }, 120_000);

  it('cut in its results and followed by NUL bytes, or text without a line break, past the longest line: named at its line', async () => {
    const cut = text.slice(0, text.indexOf('\n    {', text.length / 2) + 1);
    const line = cut.split('\n').length;
    const nul = file('cut-nul.json', cut, limits.lineBytes + MiB);
    await expectRefused(nul, `${nul}:${line}: results[`);
    const long = file('cut-long.json', cut, 0, Buffer.alloc(limits.lineBytes + MiB, 'x'));
    const res = await timed(['report', '--from', long, '-o', join(dir, 'r-out')]);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(new RegExp(`^answer-eval: ${long}:${line}: results\\[\\d+\\] is longer than 1 MiB: not a report.json written by answer-eval\\n$`));
    expect(res.ms).toBeLessThan(20_000);
  }, 120_000);

  it('the built CLI, with the bounds users have: 200 MB of NUL bytes after its end, every reader refuses it within seconds, in bounded memory', async () => {
    const path = file('nul-cli.json', text, 200 * MiB);
    const said = `${path}:${text.split('\n').length}: NUL bytes (padding, e.g. left by a crash) after the end of the report, from byte ${Buffer.byteLength(text)}: the report itself is whole; truncate -s ${Buffer.byteLength(text)} ${path} keeps only the report`;
    // four processes at a time (each one's peak memory is its own), each writing to a directory of its own
    const all = readers(path).map(([name, args], k): [string, string[]] => [name, args.map((a, i) => (args[i - 1] === '-o' ? `${a}-cli-${k}` : a))]);
    for (let at = 0; at < all.length; at += 4) {
      await Promise.all(all.slice(at, at + 4).map(async ([name, args]) => {
        const res = await runMeasured(args);
        expect(res.code, `${name}: ${res.stderr}`).toBe(2);
        expect(res.stderr, name).toContain(said);
        expect(res.ms, name).toBeLessThan(20_000);
        if (res.peakMiB !== undefined) expect(res.peakMiB, name).toBeLessThan(300);
      }));
    }
  }, 120_000);

  it('NUL bytes, garbage or text and no report at all: refused at its first bytes, or past the head searched', async () => {
    const cases: [string, string][] = [
      [file('all-nul.json', '', 300 * MiB), ':1: not a JSON object (it begins with byte 0x00, where a report begins with "{")'],
      [file('all-text.json', '{', 0, Buffer.alloc(limits.wholeReportBytes + MiB, 'a')), ': a report of 5 MiB must keep the layout answer-eval writes'],
      [file('text-nul.json', '{"schemaVersion": "1.4",\n', 300 * MiB), ':2: a NUL byte at byte 25, which no JSON text holds (a damaged or binary file)'],
    ];
    for (const [path, said] of cases) {
      const res = await timed(['compare', path, report, '-o', join(dir, 'c-out')]);
      expect(res.code, res.stderr).toBe(2);
      expect(res.stderr).toContain(`answer-eval: ${path}${said}`);
      expect(res.ms).toBeLessThan(20_000);
    }
  }, 120_000);

  it('a result or a head nested 5,000 levels deep, in our layout or minified: named, never an internal error', async () => {
    const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    const lines = text.split('\n');
    const at = lines.findIndex((l) => l.startsWith('    {"id"'));
    lines[at] = lines[at]!.replace('"answers":[', `"x":${deep},"answers":[`);
    const inLine = file('deep-line.json', lines.join('\n'));
    const inHead = file('deep-head.json', text.replace('"run": {', `"run": {"x": ${deep},`));
    const minified = file('deep-min.json', JSON.stringify(JSON.parse(text)).replace('"answers":[', `"x":${deep},"answers":[`));
    for (const [path, said] of [
      [inLine, `${inLine}:${at + 1}: results[0] nests arrays and objects more than 64 levels deep`],
      [inHead, `${inHead}: nests arrays and objects more than 64 levels deep`],
      [minified, `${minified}: nests arrays and objects more than 64 levels deep`],
    ] as const) {
      const res = await runCli(['report', '--from', path, '-o', join(dir, 'r-out')]);
      expect(res.code, res.stderr).toBe(2);
      expect(res.stderr).toContain(said);
      // trend leaves an unreadable run out, saying why
      const trend = await runCli(['trend', path, '-o', join(dir, 't-out')]);
      expect(trend.code, trend.stderr).toBe(2);
      expect(trend.stderr).toContain('nests arrays and objects more than 64 levels deep');
      expect(`${res.stderr}${trend.stderr}`).not.toMatch(/internal error|RangeError/);
    }
  }, 120_000);

  it('a pipe or a device given as a report: refused at once, naming what it is', async () => {
    for (const [path, what] of [['/dev/zero', 'a character device'], ['/dev/urandom', 'a character device']]) {
      const res = await runCli(['compare', path!, report, '-o', join(dir, 'c-out')]);
      expect(res.code).toBe(2);
      expect(res.stderr).toBe(`answer-eval: ${path}: not a regular file (${what}); expected a report.json written by answer-eval, saved to a file\n`);
    }
  }, 120_000);
});
