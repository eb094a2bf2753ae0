import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReportSchema } from '../../src/model/report.js';
import { runCli, spawnCli } from '../helpers/cli.js';
import { item, startSpecServer, type SpecServer } from '../helpers/spec-server.js';
import { tempDir, writeTemp } from '../helpers/tmp.js';

// No run is ever destroyed: `run -o DIR` where DIR holds a run is refused (exit 2) before anything is sent, naming
// --resume when the run can be finished, --overwrite and a fresh --out. --overwrite writes the new run beside the old
// one and puts it in place only once it has completed; killed half way, it leaves the old run whole and itself
// resumable with `--resume DIR`.

const dir = tempDir('answer-eval-overwrite-');
const env = { ANSWER_AGENT_CODE: 'code' };
const QUESTIONS = 40;
const dataset = writeTemp(dir, 'q.csv', `id,question,expected_sequence\n${Array.from({ length: QUESTIONS }, (_, i) => `q${i + 1},question ${i + 1},${(i % 3) + 1}`).join('\n')}\n`);
let server: SpecServer;
let delayMs = 0;

beforeAll(async () => {
  server = await startSpecServer(() => ({ delayMs, body: { answers: [item(1, 80), item(2, 40)] } }));
});
afterAll(() => server.close());

const run = (out: string, ...more: string[]) => runCli(['run', '-d', dataset, '--base-url', server.url, '--agent', 'a', '-o', out, '--quiet', ...more], env);
const report = (d: string) => ReportSchema.parse(JSON.parse(readFileSync(join(d, 'report.json'), 'utf8')));
/** Every file of a directory (not below it) with its bytes; a lock left by a killed run aside. */
const files = (d: string): Record<string, string> =>
  Object.fromEntries(readdirSync(d, { withFileTypes: true }).filter((e) => e.isFile() && e.name !== 'answer-eval.lock').map((e) => [e.name, readFileSync(join(d, e.name), 'latin1')]));
const lines = (path: string): number => (existsSync(path) ? readFileSync(path, 'utf8').split('\n').length - 1 : 0);

async function until(what: () => boolean, timeoutMs = 20_000): Promise<void> {
  for (const end = Date.now() + timeoutMs; !what(); ) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('run -o DIR where DIR holds a run', () => {
  it('a completed run: exit 2 before anything is sent, naming --overwrite and a fresh --out; every file as it was', async () => {
    const out = join(dir, 'completed');
    expect((await run(out)).code).toBe(0);
    const before = files(out);
    const sent = server.received.length;
    const again = await run(out);
    expect(again.code).toBe(2);
    expect(again.stderr).toBe(
      `answer-eval: --out ${out} holds a completed run of ${QUESTIONS} questions (started ${report(out).run.startedAt}); nothing was changed. ` +
        'To replace it: add --overwrite (the earlier run stays as it is until the new one has completed). ' +
        'To keep it: choose a fresh --out (without one, each run gets its own reports/<timestamp>).\n',
    );
    expect(again.stdout).toBe('');
    expect(server.received.length).toBe(sent);
    expect(files(out)).toEqual(before);
  });

  it('an interrupted run: --resume DIR is named first, and finishes it', async () => {
    const out = join(dir, 'interrupted');
    delayMs = 40;
    const child = spawnCli(['run', '-d', dataset, '--base-url', server.url, '--agent', 'a', '-o', out, '--quiet', '-c', '2'], env);
    await until(() => lines(join(out, 'journal.jsonl')) > 5);
    child.child.kill('SIGINT');
    expect((await child.exited).code).toBe(3);
    delayMs = 0;
    const before = files(out);
    const again = await run(out);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(new RegExp(`^answer-eval: --out ${out} holds a partial run \\(\\d+ of ${QUESTIONS} questions, started [^)]+\\); nothing was changed\\. `));
    expect(again.stderr).toContain(`To finish it: answer-eval run --resume ${out}. To replace it: add --overwrite`);
    expect(files(out)).toEqual(before);
    const resumed = await runCli(['run', '--resume', out, '--quiet'], env);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(report(out).run.status).toBe('completed');
  });

  it('--overwrite: the new run replaces the old once it has completed; a format not written this time does not stay', async () => {
    const out = join(dir, 'replaced');
    expect((await run(out)).code).toBe(0);
    const old = report(out).run.startedAt;
    const res = await run(out, '--overwrite', '--format', 'json');
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toContain(`answer-eval: --overwrite: ${out} holds a completed run of ${QUESTIONS} questions (started ${old}); it stays as it is until this run has completed`);
    expect(res.stdout).toContain(`reports: ${join(out, 'report.json')}\n`);
    expect(readdirSync(out).sort()).toEqual(['journal.jsonl', 'report.json', 'run-options.json']);
    expect(report(out).run.startedAt).not.toBe(old);
    expect(JSON.parse(readFileSync(join(out, 'journal.jsonl'), 'utf8').split('\n')[0]!)).toMatchObject({ startedAt: report(out).run.startedAt });
  });

  it('--overwrite with --baseline: compare.json and compare.html name the reports where they are once published', async () => {
    const base = join(dir, 'base-of-overwrite');
    const out = join(dir, 'overwritten-with-baseline');
    expect((await run(base)).code).toBe(0);
    expect((await run(out)).code).toBe(0);
    const links = (): string[] => [...readFileSync(join(out, 'compare.html'), 'utf8').matchAll(/href="([^"]*report\.html)"/g)].map((m) => m[1]!);
    const compared = (): { base: { file: string }; head: { file: string } } => JSON.parse(readFileSync(join(out, 'compare.json'), 'utf8'));

    const res = await run(out, '--overwrite', '--baseline', base);
    expect(res.code, res.stderr).toBe(0);
    expect(links()).toEqual(['../base-of-overwrite/report.html', 'report.html']);
    expect(compared().head.file).toBe(join(out, 'report.json'));

    // compared with the run it replaces: that report is gone once published, so it is named but not linked
    const self = await run(out, '--overwrite', '--baseline', out);
    expect(self.code, self.stderr).toBe(0);
    expect(links()).toEqual(['report.html']);
    expect(compared()).toMatchObject({ base: { file: out }, head: { file: join(out, 'report.json') } });

    // a baseline kept in a folder below the run's directory is not replaced: it stays linked
    const below = join(out, 'kept');
    expect((await run(below)).code).toBe(0);
    const kept = await run(out, '--overwrite', '--baseline', below);
    expect(kept.code, kept.stderr).toBe(0);
    expect(links()).toEqual(['kept/report.html', 'report.html']);
  });

  it('--overwrite killed half way: the old run stays whole; --resume DIR finishes the new one, which then replaces it', async () => {
    const out = join(dir, 'killed');
    expect((await run(out)).code).toBe(0);
    const before = files(out);
    delayMs = 40;
    const child = spawnCli(['run', '-d', dataset, '--base-url', server.url, '--agent', 'a', '-o', out, '--quiet', '-c', '2', '--overwrite'], env);
    const staged = (): string | undefined => {
      const root = join(out, '.answer-eval-overwrite');
      const name = existsSync(root) ? readdirSync(root)[0] : undefined;
      return name === undefined ? undefined : join(root, name);
    };
    await until(() => lines(join(staged() ?? out, 'journal.jsonl')) > 5 && staged() !== undefined);
    child.child.kill('SIGKILL');
    await child.exited;
    delayMs = 0;
    expect(files(out)).toEqual(before); // the old run, byte for byte

    const plain = await run(out);
    expect(plain.code).toBe(2);
    expect(plain.stderr).toContain(`holds an unfinished --overwrite run (started `);
    expect(plain.stderr).toContain(`To finish it: answer-eval run --resume ${out}. To replace it: add --overwrite`);
    expect(files(out)).toEqual(before);

    const answered = lines(join(staged()!, 'journal.jsonl')) - 1;
    const sent = server.received.length;
    const resumed = await runCli(['run', '--resume', out, '--quiet'], env);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toContain(`--resume ${out}: continuing its unfinished --overwrite run`);
    expect(server.received.length - sent).toBe(QUESTIONS - answered);
    const now = report(out);
    expect(now.run.status).toBe('completed');
    expect(now.run.resumed).toMatchObject({ fromJournal: answered });
    expect(now.results).toHaveLength(QUESTIONS);
    expect(existsSync(join(out, '.answer-eval-overwrite'))).toBe(false);
    expect(readFileSync(join(out, 'report.json'), 'latin1')).not.toBe(before['report.json']);
  });
});

describe('rescore, merge and report into a directory holding a run', () => {
  it('are refused (exit 2) unless --overwrite, which replaces it; report --from DIR rewrites its own directory', async () => {
    const [a, b] = [join(dir, 'ra'), join(dir, 'rb')];
    expect((await run(a, '--format', 'json')).code).toBe(0);
    expect((await run(b)).code).toBe(0);
    const before = files(b);
    for (const args of [['rescore', a, '--floor', '50'], ['merge', a], ['report', '--from', a]]) {
      const r = await runCli([...args, '-o', b]);
      expect(r.code, args[0]).toBe(2);
      expect(r.stderr, args[0]).toContain(`--out ${b} holds a completed run of ${QUESTIONS} questions`);
      expect(r.stderr, args[0]).toContain(`To keep it: give ${args[0]} another --out.`);
    }
    expect(files(b)).toEqual(before);

    const r = await runCli(['rescore', a, '--floor', '50', '-o', b, '--overwrite', '--format', 'json,csv']);
    expect(r.code, r.stderr).toBe(0);
    expect(readdirSync(b).sort()).toEqual(['report.json', 'results.csv']); // the old run's journal and reports are gone with it
    expect(report(b).run.rescored).toMatchObject({ floor: 50 });

    expect((await runCli(['report', '--from', a, '--format', 'md'])).code).toBe(0);
    expect(readdirSync(a).sort()).toEqual(['journal.jsonl', 'report.json', 'run-options.json', 'summary.md']);
  });
});
