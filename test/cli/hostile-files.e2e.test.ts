import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CLI, runCli, spawnCli, type CliResult } from '../helpers/cli.js';
import { item, startSpecServer, type SpecServer } from '../helpers/spec-server.js';
import { tempDir, writeTemp } from '../helpers/tmp.js';

const dir = tempDir();
const env = { ANSWER_AGENT_CODE: 'code-1234' };
let server: SpecServer;
beforeAll(async () => {
  server = await startSpecServer((req) => {
    const text = (req.body['question'] as { text: string }).text;
    return { body: { answers: [item(1, 90, { answer: `an answer to "${text}" ${'that goes on '.repeat(8)}` }), item(2, 40)] }, delayMs: text.startsWith('slow') ? 150 : 0 };
  });
});
afterAll(() => server.close());

const dataset = (name: string, n: number, word = 'question'): string =>
  writeTemp(dir, name, `id,question,expected_sequence\n${Array.from({ length: n }, (_, i) => `q${i},${word} ${i},${(i % 3) + 1}\n`).join('')}`);
const run = (ds: string, out: string, ...more: string[]): Promise<CliResult> => runCli(['run', '-d', ds, '--base-url', server.url, '--agent', 'a', '-o', out, '-q', ...more], env);
const sent = (): number => server.received.length;
const journalResults = (out: string): number => readFileSync(join(out, 'journal.jsonl'), 'utf8').split('\n').filter((l) => l.startsWith('{"id"')).length;
/** Runs a shell command line (bash, for `<(...)`) with the built CLI as $CLI. */
const shell = (line: string): Promise<CliResult> =>
  new Promise((resolve) => {
    const child = spawn('bash', ['-c', line], { env: { ...process.env, ...env, CLI: `${process.execPath} ${CLI}`, URL: server.url } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });

describe('a dataset readable only once', () => {
  it('-d <(cat ds.csv): every question is asked, exit 0', async () => {
    const ds = dataset('once.csv', 7);
    const before = sent();
    const res = await shell(`$CLI run -d <(cat ${ds}) --base-url $URL --agent a -o ${join(dir, 'subst')} -q`);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^Run: 7 of 7 questions/);
    expect(sent() - before).toBe(7);
    expect(JSON.parse(readFileSync(join(dir, 'subst', 'report.json'), 'utf8')).run.dataset.path).toMatch(/^\/dev\/fd\/\d+$/);
  });

  it('cat ds.csv | answer-eval run -d /dev/stdin', async () => {
    const ds = dataset('stdin.csv', 5);
    const res = await shell(`cat ${ds} | $CLI run -d /dev/stdin --base-url $URL --agent a -o ${join(dir, 'stdin')} -q`);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^Run: 5 of 5 questions/);
  });

  it('a run that measured nothing never exits 0 (a shard that holds none of the questions)', async () => {
    const ds = writeTemp(dir, 'one.csv', 'id,question\nonly,the one question\n');
    // "only" hashes to shard 2 of 2, so shard 1 is empty
    const res = await run(ds, join(dir, 'empty-shard'), '--shard', '1/2');
    expect(res.code).toBe(3);
    expect(res.stderr).toContain('answer-eval: nothing was measured: no question was asked (shard 1/2 holds none of the 1 question of');
  });
});

describe('--out', () => {
  it('an existing file, a path below a file, /dev/null: exit 2 naming it, nothing sent', async () => {
    const ds = dataset('out.csv', 2);
    const file = writeTemp(dir, 'a-file', 'x');
    const before = sent();
    for (const [out, said] of [
      [file, `--out ${file} is a file, not a directory`],
      [join(file, 'sub'), `--out ${join(file, 'sub')} lies below ${file}, which is a file, not a directory`],
      ['/dev/null', '--out /dev/null is a character device, not a directory'],
    ] as const) {
      const res = await run(ds, out);
      expect(res.code, res.stderr).toBe(2);
      expect(res.stderr).toContain(`answer-eval: ${said}`);
      expect(res.stderr).not.toContain('internal error');
    }
    expect(sent()).toBe(before);
  });

  it('a second run into the same --out refuses while the first runs; the first completes with its journal intact', async () => {
    const ds = dataset('lock.csv', 12, 'slow');
    const out = join(dir, 'locked');
    const first = spawnCli(['run', '-d', ds, '--base-url', server.url, '--agent', 'a', '-o', out, '-q', '-c', '1'], env);
    const until = Date.now() + 10_000;
    while (!existsSync(join(out, 'journal.jsonl')) && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    const second = await run(ds, out);
    expect(second.code).toBe(2);
    expect(second.stderr).toContain(`answer-eval: --out ${out} is in use by another answer-eval run (pid ${first.child.pid}, since `);
    expect(second.stderr).toContain(`If no run is using it, delete ${join(out, 'answer-eval.lock')}`);
    const done = await first.exited;
    expect(done.code).toBe(0);
    expect(journalResults(out)).toBe(12);
    expect(existsSync(join(out, 'answer-eval.lock'))).toBe(false);
  });

  it('takes over a stale lock (its process is gone), saying so', async () => {
    const out = join(dir, 'stale');
    mkdirSync(out);
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString();
    writeFileSync(join(out, 'answer-eval.lock'), JSON.stringify({ pid: Number(gone), host: hostname(), startedAt: '2024-01-01T00:00:00.000Z' }));
    const res = await run(dataset('stale.csv', 2), out);
    expect(res.code).toBe(0);
    expect(res.stderr).toContain(`answer-eval: ${join(out, 'answer-eval.lock')}: took over the lock of pid ${gone} (since 2024-01-01T00:00:00.000Z), which is no longer running`);
  });

  it('a FIFO in place of the lock is refused at once, naming it; a huge one is no lock and is taken over', async () => {
    const fifo = join(dir, 'fifo-lock');
    mkdirSync(fifo);
    execFileSync('mkfifo', [join(fifo, 'answer-eval.lock')]);
    const before = sent();
    const refused = await run(dataset('fifo-lock.csv', 2), fifo);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`${join(fifo, 'answer-eval.lock')} is not a lock file answer-eval wrote (not a regular file)`);
    expect(sent()).toBe(before);

    const huge = join(dir, 'huge-lock');
    mkdirSync(huge);
    writeFileSync(join(huge, 'answer-eval.lock'), Buffer.alloc(8 << 20, 0x7b));
    const res = await run(dataset('huge-lock.csv', 2), huge);
    expect(res.code).toBe(0);
    expect(existsSync(join(huge, 'answer-eval.lock'))).toBe(false);
  });
});

describe('encodings', () => {
  it('validate and run refuse a Latin-1 file with file:line and what it looks like; --encoding latin1 reads it', async () => {
    const path = join(dir, 'latin1.csv');
    writeFileSync(path, Buffer.from('id,question\nq1,un caff\xe8\n', 'latin1'));
    const said = `${path}:2: error: is not UTF-8 (byte 0xE8, after "q1,un caff"); it looks like windows-1252 / ISO-8859-1 (Latin-1), where that byte is "è": save the file as UTF-8, or pass --encoding latin1`;
    const validate = await runCli(['validate', '-d', path]);
    expect(validate.code).toBe(2);
    expect(validate.stdout).toContain(said);
    expect((await runCli(['validate', '-d', path, '--encoding', 'latin1'])).code).toBe(0);

    const before = sent();
    const refused = await run(path, join(dir, 'latin1-out'));
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(said.replace(': error:', ':'));
    expect(sent()).toBe(before);
    const read = await run(path, join(dir, 'latin1-ok'), '--encoding', 'latin1');
    expect(read.code).toBe(0);
    expect(server.received.at(-1)!.body['question']).toEqual({ text: 'un caffè' });
  });
});

describe('a full disk', () => {
  // a small tmpfs needs root (mount); elsewhere these tests skip, saying why
  const mnt = join(dir, 'mnt');
  mkdirSync(mnt);
  const mount = (size: string): boolean => spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', mnt]).status === 0;
  const canMount = mount('64k');
  if (canMount) execFileSync('umount', [mnt]);
  else console.warn('full-disk tests skipped: cannot mount a tmpfs here (needs root); /dev/full is still tested');
  // a test that fails leaves its mount; tmpfs mounts stack, so take them all off
  const unmountAll = (): void => {
    while (spawnSync('umount', [mnt]).status === 0);
  };
  afterEach(unmountAll);
  afterAll(() => rmSync(mnt, { recursive: true, force: true }));
  const page = (bytes: number): number => Math.ceil(bytes / 4096) * 4096;

  it.skipIf(!canMount)('reports that do not fit: each format on its own, the file named, --resume writes them once there is space', async () => {
    const ds = dataset('disk.csv', 150);
    const formats = ['--format', 'json,md,csv']; // report.json, written first, is the largest
    const roomy = join(dir, 'measure');
    expect((await run(ds, roomy, ...formats)).code).toBe(0);
    const size = (f: string) => page(statSync(join(roomy, f)).size);
    const others = ['summary.md', 'results.csv'];
    const room = size('journal.jsonl') + 4096 + others.reduce((n, f) => n + size(f), 0) + 12 * 1024;
    expect(size('report.json')).toBeGreaterThan(room - size('journal.jsonl')); // report.json cannot fit
    expect(mount(String(room))).toBe(true);

    const out = join(mnt, 'run');
    const before = sent();
    const res = await run(ds, out, ...formats);
    expect(res.code).toBe(3);
    expect(res.stderr).toContain(`answer-eval: could not write ${join(out, 'report.json')}: no space left on device (ENOSPC); written: ${others.map((f) => join(out, f)).join(', ')}`);
    expect(res.stderr).toContain(`Once there is space, answer-eval run --resume ${out} writes every report`);
    expect(res.stderr).not.toContain('internal error');
    for (const f of others) expect(existsSync(join(out, f))).toBe(true);
    expect(existsSync(join(out, 'report.json'))).toBe(false);
    expect(existsSync(join(out, 'report.json.tmp'))).toBe(false);
    const asked = sent() - before;
    expect(asked).toBe(150);

    execFileSync('mount', ['-o', 'remount,size=8m', mnt]);
    const resumed = await runCli(['run', '--resume', out, '-q'], env);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(sent() - before).toBe(150); // nothing asked again
    expect(JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')).results).toHaveLength(150);
  });

  it.skipIf(!canMount)('a journal that fills the disk: exit 3, what the journal holds is kept, the message says why no report was written', async () => {
    expect(mount('64k')).toBe(true);
    const out = join(mnt, 'run');
    const res = await run(dataset('fill.csv', 1500), out);
    expect(res.code).toBe(3);
    expect(res.stderr).toMatch(new RegExp(`answer-eval: cannot write the journal ${join(out, 'journal.jsonl')}: no space left on device \\(ENOSPC\\); the run stopped\\. \\d+ results are in the journal`));
    expect(res.stderr).toContain(`could not write ${join(out, 'report.json')}`);
    expect(res.stderr).toContain(`answer-eval run --resume ${out}`);
    expect(res.stderr).not.toContain('internal error');
    expect(journalResults(out)).toBeGreaterThan(0);
  });

  it('a job summary that cannot be appended ($GITHUB_STEP_SUMMARY=/dev/full) is a warning; every report is written', async () => {
    const out = join(dir, 'step');
    const res = await runCli(['run', '-d', dataset('step.csv', 2), '--base-url', server.url, '--agent', 'a', '-o', out, '-q'], { ...env, GITHUB_STEP_SUMMARY: '/dev/full' });
    expect(res.code).toBe(0);
    expect(res.stderr).toBe('answer-eval: warning: could not append the summary to $GITHUB_STEP_SUMMARY (/dev/full): no space left on device (ENOSPC)\n');
    expect(existsSync(join(out, 'report.json'))).toBe(true);
  });
});
