import { spawn } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readdirSync, writeFileSync, writeSync, ftruncateSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS, limits } from '../../src/util/limits.js';
import { setLimitsForTests } from '../helpers/limits.js';
import { runCli, spawnCli, type CliResult } from '../helpers/cli.js';
import { runMeasured } from '../helpers/measure.js';
import { tempDir, writeTemp } from '../helpers/tmp.js';
import { dirHolds, stderrHolds } from '../helpers/until.js';

// Issue 25, class 7: deep or huge input fails clearly. A row nested 5,000 levels deep is a file:line error in run and
// validate; a device, a pipe that never ends or a file of gigabytes without a line break is refused within seconds,
// in bounded memory, and leaves nothing in TMPDIR, even when the run is stopped by SIGTERM. The CLI runs in this
// process with the longest row lowered (util/limits.ts), each fixture just past it; the built CLI, with the bound users
// have, shows time and memory once, and what only a process shows: a FIFO, a signal.
const MiB = 1024 * 1024;
const dir = tempDir();
let restore: () => void;
beforeAll(() => {
  restore = setLimitsForTests({ rowBytes: MiB });
});
const deep = `${'['.repeat(5000)}1${']'.repeat(5000)}`;
const writers: { kill: () => void }[] = [];
afterAll(() => {
  restore?.();
  for (const w of writers) {
    try {
      w.kill();
    } catch {
      // gone already
    }
  }
});

/** A fresh TMPDIR, to see what a run leaves in it. */
function tmp(name: string): { path: string; env: { TMPDIR: string }; left: () => string[] } {
  const path = join(dir, `tmp-${name}`);
  mkdirSync(path);
  return { path, env: { TMPDIR: path }, left: () => readdirSync(path) };
}

/** The CLI in this process, its wall time, and with `tmpdir` as the TMPDIR its temporary files go to (os.tmpdir()). */
async function timed(args: string[], tmpdir?: string): Promise<CliResult & { ms: number }> {
  const before = process.env['TMPDIR'];
  if (tmpdir !== undefined) process.env['TMPDIR'] = tmpdir;
  const started = performance.now();
  try {
    const res = await runCli(args, tmpdir === undefined ? {} : { TMPDIR: tmpdir });
    return { ...res, ms: performance.now() - started };
  } finally {
    if (before === undefined) delete process.env['TMPDIR'];
    else process.env['TMPDIR'] = before;
  }
}

/** A FIFO that `sh -c script` writes to (nothing written when script is undefined). */
function fifo(name: string, script?: string): string {
  const path = join(dir, name);
  execFileSync('mkfifo', [path]);
  if (script !== undefined) {
    // its own process group, so that the shell and what it runs (yes) go together
    const child = spawn('sh', ['-c', `(${script}) > "$0" 2>/dev/null`, path], { stdio: 'ignore', detached: true });
    writers.push({ kill: () => process.kill(-child.pid!, 'SIGKILL') });
  }
  return path;
}

/** A file of `size` bytes: `head` then NUL bytes (sparse: no disk for them). */
function sparse(name: string, head: string, size: number): string {
  const path = join(dir, name);
  const fd = openSync(path, 'w');
  writeSync(fd, head);
  ftruncateSync(fd, size);
  closeSync(fd);
  return path;
}

const run = (ds: string, env: Record<string, string> = {}) => runCli(['run', '-d', ds, '-o', join(dir, `out-${Math.random().toString(36).slice(2)}`), '-q'], env);

describe('a question set nested deep', () => {
  it('extra_data nested 5,000 levels deep: a file:line error in validate and run, never an internal error', async () => {
    const ds = writeTemp(dir, 'deep.jsonl', `{"id":"a","question":"how do I pay"}\n{"id":"b","question":"refund","extra_data":${deep}}\n{"id":"c","turns":[{"question":"hi","extra_data":{"x":${deep}}}]}\n`);
    for (const res of [await runCli(['validate', '-d', ds]), await run(ds)]) {
      expect(res.code, res.stderr).toBe(2);
      expect(`${res.stdout}${res.stderr}`).toContain(`${ds}:2: `);
      expect(`${res.stdout}${res.stderr}`).toMatch(/:2: (error: )?nests arrays and objects more than 64 levels deep \(at character \d+\)/);
      expect(`${res.stdout}${res.stderr}`).toContain(`${ds}:3: `);
      expect(res.stderr).not.toMatch(/internal error|RangeError/);
    }
  }, 120_000);

  it('a knowledge base row nested 5,000 levels deep: a file:line error', async () => {
    const kb = writeTemp(dir, 'deep-kb.jsonl', `{"sequence_number":1,"answer":"a"}\n{"sequence_number":2,"answer":"b","extra":${deep}}\n`);
    const res = await runCli(['run', '--kb', kb, '-o', join(dir, 'deep-kb'), '-q']);
    expect(res.code, res.stderr).toBe(2);
    expect(res.stderr).toContain(`${kb}:2: nests arrays and objects more than 64 levels deep`);
  }, 120_000);
});

describe('devices, pipes and files without end', () => {
  it('/dev/zero and /dev/urandom as a dataset: refused at once, nothing left in TMPDIR', async () => {
    for (const device of ['/dev/zero', '/dev/urandom']) {
      for (const command of ['validate', 'run']) {
        const t = tmp(`${command}-${device.slice(5)}`);
        const res = await timed(command === 'validate' ? ['validate', '-d', device] : ['run', '-d', device, '-o', join(dir, `dev-${device.slice(5)}`), '-q'], t.path);
        expect(res.code, res.stderr).toBe(2);
        expect(res.stderr).toMatch(new RegExp(`^answer-eval: ${device}: holds a NUL byte \\(byte \\d+\\): not a text file`));
        expect(res.ms).toBeLessThan(20_000);
        expect(t.left()).toEqual([]);
      }
    }
  }, 120_000);

  it('`yes |` as a dataset: its first line is no header, refused at once', async () => {
    const t = tmp('yes');
    const res = await runMeasured(['validate', '-d', fifo('yes.fifo', 'yes')], t.env);
    expect(res.code, res.stderr).toBe(2);
    expect(res.stderr).toContain('yes.fifo: its first line ("y") names no "question" column: not a question set');
    expect(res.ms).toBeLessThan(20_000);
    expect(t.left()).toEqual([]);
  }, 120_000);

  it('a FIFO nobody writes to: says it waits, and SIGTERM ends the run, leaving nothing in TMPDIR', async () => {
    const t = tmp('silent');
    const cli = spawnCli(['run', '-d', fifo('silent.fifo'), '-o', join(dir, 'silent'), '-q'], t.env);
    await stderrHolds(cli, 'waiting for');
    expect(cli.output().stderr).toContain(`answer-eval: waiting for ${join(dir, 'silent.fifo')}: nothing has come from it for 3 s (a pipe that nobody writes to? Ctrl-C stops)\n`);
    cli.child.kill('SIGTERM');
    expect((await cli.exited).signal).toBe('SIGTERM');
    expect(t.left()).toEqual([]);
  }, 120_000);

  it('SIGTERM while a FIFO fed without end is being copied: the copy is removed', async () => {
    const t = tmp('endless');
    const cli = spawnCli(['validate', '-d', fifo('endless.fifo', "echo id,question; yes '1,how do I pay'")], t.env);
    await dirHolds(t.path, () => t.left().length > 0);
    expect(t.left()).toHaveLength(1); // the copy, under way
    cli.child.kill('SIGTERM');
    const exited = await cli.exited;
    expect(exited.signal, exited.stderr).toBe('SIGTERM');
    expect(t.left()).toEqual([]);
  }, 120_000);

  it('a file without a line break past the longest row (NUL bytes, or text): a file:line error within seconds', async () => {
    expect(DEFAULT_LIMITS.rowBytes).toBe(16 * MiB); // users' bound; this file's is 1 MiB
    const nul = sparse('nul.csv', '', limits.rowBytes + MiB);
    const text = join(dir, 'long.jsonl');
    writeFileSync(text, `{"question":"q"}\n${'a'.repeat(limits.rowBytes + MiB)}`);
    for (const [ds, line, nuls] of [[nul, 1, ' and holds NUL bytes'], [text, 2, '']] as const) {
      for (const args of [['validate', '-d', ds], ['run', '-d', ds, '-o', join(dir, `long-${line}`), '-q']]) {
        const res = await timed(args);
        expect(res.code, res.stderr).toBe(2);
        expect(`${res.stdout}${res.stderr}`).toContain(`${ds}:${line}: ${args[0] === 'validate' ? 'error: ' : ''}is longer than 1 MiB${nuls}: not a question set`);
        expect(res.ms).toBeLessThan(20_000);
      }
    }
  }, 120_000);

  it('the built CLI, with the bound users have: 300 MB of NUL bytes, or 40 MB of text, without a line break: refused at 16 MiB within seconds, in bounded memory', async () => {
    const nul = sparse('nul-cli.csv', '', 300 * MiB);
    const text = join(dir, 'long-cli.jsonl');
    writeFileSync(text, `{"question":"q"}\n${'a'.repeat(40 * MiB)}`);
    // the four processes side by side: each one's peak memory is its own
    await Promise.all([[nul, 1, ' and holds NUL bytes'], [text, 2, '']].flatMap(([ds, line, nuls]) =>
      [['validate', '-d', `${ds}`], ['run', '-d', `${ds}`, '-o', join(dir, `long-cli-${line}`), '-q']].map(async (args) => {
        const res = await runMeasured(args);
        expect(res.code, res.stderr).toBe(2);
        expect(`${res.stdout}${res.stderr}`).toContain(`${ds}:${line}: ${args[0] === 'validate' ? 'error: ' : ''}is longer than 16 MiB${nuls}: not a question set`);
        expect(res.ms).toBeLessThan(20_000);
        if (res.peakMiB !== undefined) expect(res.peakMiB).toBeLessThan(300);
      })));
  }, 120_000);

  it('a CSV quote never closed, past the longest row: named at its line; a file of bad lines stops after 1000 problems', async () => {
    const quote = writeTemp(dir, 'quote.csv', `id,question\n1,ok\n2,"never closed\n${'and so on\n'.repeat(Math.ceil((limits.rowBytes + MiB) / 10))}`);
    const res = await runCli(['validate', '-d', quote]);
    expect(res.code).toBe(2);
    expect(res.stdout).toContain(`${quote}:3: error: a quote opened on this line is not closed within 1 MiB (the most a row may hold)`);
    const bad = writeTemp(dir, 'bad.jsonl', 'not json\n'.repeat(2_000_000));
    const many = await timed(['validate', '-d', bad]);
    expect(many.code).toBe(2);
    expect(many.stdout).toContain(`${bad}:1000: error: reading stopped after 1000 problems: is this the question set you meant?`);
    expect(many.stdout).toContain(`${bad}: 0 questions, 1001 errors`);
    expect(many.ms).toBeLessThan(20_000);
  }, 120_000);

  it('a knowledge base, alias file or agent-code file that is a device or a pipe without end: refused, named', async () => {
    const sample = 'datasets/sample/questions.csv';
    // a FIFO, in a process of its own
    const yes = await runMeasured(['run', '--kb', fifo('kb.fifo', 'yes'), '-o', join(dir, 'kb-yes'), '-q']);
    expect(yes.code, yes.stderr).toBe(2);
    expect(yes.stderr).toContain('kb.fifo:1: its first line ("y") is not a JSON object: not a knowledge base');
    expect(yes.ms).toBeLessThan(20_000);
    const cases: [string[], string][] = [
      [['run', '--kb', '/dev/zero', '-o', join(dir, 'kb-zero'), '-q'], 'answer-eval: /dev/zero:1: holds a NUL byte at byte 0: not a text file (expected a .jsonl or .csv knowledge base)'],
      [['validate', '-d', sample, '--aliases', '/dev/urandom'], 'answer-eval: /dev/urandom:'],
      [['validate', '-d', sample, '--aliases', writeTemp(dir, 'aliases.csv', 'not a pair\n'.repeat(500_000))], 'aliases.csv:1001: reading stopped after 1000 problems: is this the alias file you meant?'],
      [['run', '-d', sample, '--base-url', 'http://127.0.0.1:9', '--agent', 'a', '--agent-code-file', '/dev/zero', '-o', join(dir, 'code'), '-q'], 'answer-eval: --agent-code-file /dev/zero: holds a NUL byte at byte 0: not a text file'],
      [['run', '--max-response-bytes', '100000000', '-o', join(dir, 'mrb'), '-q'], 'answer-eval: --max-response-bytes must be a whole number from 1 to 33554432 (32 MiB), got 100000000'],
    ];
    for (const [args, said] of cases) {
      const res = await timed(args);
      expect(res.code, res.stderr).toBe(2);
      expect(res.stderr).toContain(said);
      expect(res.ms).toBeLessThan(20_000);
    }
  }, 120_000);
});
