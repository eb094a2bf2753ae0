import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/model/report.js';
import { runCli } from '../helpers/cli.js';
import { item, startSpecServer, type SpecServer } from '../helpers/spec-server.js';
import { tempDir, writeTemp } from '../helpers/tmp.js';

const dir = tempDir();
let server: SpecServer;
const env = { ANSWER_AGENT_CODE: 'code' };
let down = false;
// a deterministic service: the answer depends only on the question text
beforeAll(async () => {
  server = await startSpecServer((req) => {
    if (down) return { status: 500, body: 'down' };
    const n = Number(/\d+/.exec((req.body['question'] as { text: string }).text)?.[0]);
    return { body: { answers: n % 5 === 0 ? [] : [item(n % 7, 50 + (n % 40)), item(3, 20)] } };
  });
});
afterAll(() => server.close());

const rows = Array.from({ length: 60 }, (_, i) => (i % 11 === 0 ? `q${i},question ${i},,fallback` : `q${i},question ${i},${i % 7},`));
const dataset = writeTemp(dir, 'qs.csv', `id,question,expected_sequence,expect\n${rows.join('\n')}\n`);
const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Report;
const run = (args: string[]) => runCli(['run', '-d', dataset, '--base-url', server.url, '--agent', 'a', '--format', 'json', ...args], env);

describe('--shard and merge', () => {
  it('4 shards merged give the same per-question outcomes as one run, one of them run more gently', async () => {
    const single = await run(['-o', join(dir, 'single')]);
    expect(single.code).toBe(0);
    const shardDirs = [1, 2, 3, 4].map((i) => join(dir, `shard-${i}`));
    // shard 3 as re-run after 429s: options that change no answer may differ between shards
    const gentle = (i: number) => (i === 2 ? ['-c', '2', '--rps', '50', '--retries', '4', '--timeout', '60000'] : []);
    for (const [i, out] of shardDirs.entries()) expect((await run(['--shard', `${i + 1}/4`, '-o', out, ...gentle(i)])).code).toBe(0);
    const sizes = shardDirs.map((d) => readJson(join(d, 'report.json')).results.length);
    expect(sizes.reduce((a, b) => a + b)).toBe(60);
    expect(Math.min(...sizes)).toBeGreaterThan(0);

    const merged = await runCli(['merge', ...shardDirs, '-o', join(dir, 'merged'), '--format', 'json']);
    expect(merged.stderr).toBe('');
    expect(merged.code).toBe(0);
    const a = readJson(join(dir, 'single', 'report.json'));
    const b = readJson(join(dir, 'merged', 'report.json'));
    const view = (r: Report) => r.results.map(({ id, outcome, top1Index, answers }) => ({ id, outcome, top1Index, answers }));
    expect(view(b)).toEqual(view(a));
    expect(b.summary.outcomes).toEqual(a.summary.outcomes);
    expect(b.summary.top1Accuracy).toBe(a.summary.top1Accuracy);
    expect(b.metrics?.rank).toEqual(a.metrics?.rank);
    expect(b.metrics?.thresholds.recommended).toEqual(a.metrics?.thresholds.recommended);
    expect(b.run).toMatchObject({ status: 'completed', mergedFrom: shardDirs.map((d) => join(d, 'report.json')) });
    expect(b.run.shard).toBeUndefined();
    expect(b.run.options).toEqual(readJson(join(shardDirs[0]!, 'report.json')).run.options); // the first shard's
  });

  it('refuses a merge with missing shards, naming them, unless --allow-partial (marked partial); refuses mismatched or repeated shards', async () => {
    const refused = await runCli(['merge', join(dir, 'shard-1'), join(dir, 'shard-2'), '-o', join(dir, 'half'), '--format', 'json']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(
      "answer-eval: cannot merge: shards 3, 4 of 4 are missing (given: 1, 2 of 4); give every shard's directory, or --allow-partial to merge these into a report marked partial\n",
    );
    const partial = await runCli(['merge', join(dir, 'shard-1'), join(dir, 'shard-2'), '-o', join(dir, 'half'), '--format', 'json', '--allow-partial']);
    expect(partial.code).toBe(0);
    expect(readJson(join(dir, 'half', 'report.json')).run).toMatchObject({ status: 'partial', stopReason: 'shards 3, 4 of 4 are missing' });

    const twice = await runCli(['merge', join(dir, 'shard-1'), join(dir, 'shard-1'), '-o', join(dir, 'x')]);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toMatch(/both shard 1\/4/);

    const other = writeTemp(dir, 'other.csv', 'id,question\nq1,question 1\n');
    expect((await runCli(['run', '-d', other, '--base-url', server.url, '--agent', 'a', '--shard', '2/4', '-o', join(dir, 'other'), '--format', 'json'], env)).code).toBe(0);
    const mismatch = await runCli(['merge', join(dir, 'shard-1'), join(dir, 'other'), '-o', join(dir, 'y'), '--allow-partial']);
    expect(mismatch.code).toBe(2);
    expect(mismatch.stderr).toMatch(/other\/report\.json does not belong with .*shard-1\/report\.json: dataset\.sha256 differs \("[0-9a-f]{64}" vs "[0-9a-f]{64}"\)\n$/);

    expect((await run(['--shard', '2/4', '--language', 'it', '-c', '3', '-o', join(dir, 'italian')])).code).toBe(0);
    const italian = await runCli(['merge', join(dir, 'shard-1'), join(dir, 'italian'), '-o', join(dir, 'z'), '--allow-partial']);
    expect(italian.code).toBe(2);
    expect(italian.stderr).toBe(`answer-eval: ${join(dir, 'italian', 'report.json')} does not belong with ${join(dir, 'shard-1', 'report.json')}: options.language differs ("it" vs "en")\n`);
  });
});

describe('--shard auto', () => {
  const environments: [string, number, (i: number, n: number) => Record<string, string>][] = [
    ['GitLab parallel:', 3, (i, n) => ({ CI_NODE_INDEX: String(i), CI_NODE_TOTAL: String(n) })],
    ['a Kubernetes Indexed Job', 2, (i, n) => ({ JOB_COMPLETION_INDEX: String(i - 1), JOB_COMPLETIONS: String(n) })],
    ['ANSWER_EVAL_SHARD (a GitHub Actions matrix)', 2, (i, n) => ({ ANSWER_EVAL_SHARD: `${i}/${n}` })],
  ];
  for (const [name, count, vars] of environments) {
    it(`takes the shard from ${name}; the shards merge into the single run`, async () => {
      const single = readJson(join(dir, 'single', 'report.json'));
      const dirs: string[] = [];
      for (let i = 1; i <= count; i++) {
        const out = join(dir, `auto-${count}-${Object.keys(vars(i, count))[0]}-${i}`);
        const res = await runCli(['run', '-d', dataset, '--base-url', server.url, '--agent', 'a', '--format', 'json', '--shard', 'auto', '-o', out], { ...env, ...vars(i, count) });
        expect(res.code, res.stderr).toBe(0);
        expect(readJson(join(out, 'report.json')).run.shard).toMatchObject({ index: i, count });
        dirs.push(out);
      }
      const merged = await runCli(['merge', ...dirs, '-o', join(dirs[0]!, '..', `merged-auto-${count}-${Object.keys(vars(1, count))[0]}`), '--format', 'json']);
      expect(merged.code, merged.stderr).toBe(0);
      const m = readJson(join(dirs[0]!, '..', `merged-auto-${count}-${Object.keys(vars(1, count))[0]}`, 'report.json'));
      expect(m.results.map(({ id, outcome, answers }) => ({ id, outcome, answers }))).toEqual(single.results.map(({ id, outcome, answers }) => ({ id, outcome, answers })));
      expect(m.summary.outcomes).toEqual(single.summary.outcomes);
    });
  }

  it('says which variables it looked for when none is set', async () => {
    const res = await runCli(['run', '-d', dataset, '--base-url', server.url, '--agent', 'a', '--shard', 'auto', '-o', join(dir, 'none')], env);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/--shard auto found no shard in the environment: set ANSWER_EVAL_SHARD=i\/n/);
  });

  it('a shard its circuit breaker stopped is refused like a missing one unless --allow-partial; shards that measured nothing merge to exit 3', async () => {
    down = true;
    try {
      const stopped = join(dir, 'stopped-3');
      expect((await run(['--shard', '3/4', '--retries', '0', '--max-consecutive-errors', '2', '-c', '1', '-o', stopped])).code).toBe(3);
      const shards = [1, 2, 4].map((i) => join(dir, `shard-${i}`));
      const refused = await runCli(['merge', ...shards, stopped, '-o', join(dir, 'with-stopped'), '--format', 'json']);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain(`answer-eval: cannot merge: ${join(stopped, 'report.json')} (shard 3/4) is partial: it stopped before asking every question (circuit breaker: 2 questions in a row ended in error`);
      expect(refused.stderr).toContain('finish it with answer-eval run --resume on its directory, or --allow-partial to merge it into a report marked partial\n');
      const allowed = await runCli(['merge', ...shards, stopped, '-o', join(dir, 'with-stopped'), '--format', 'json', '--allow-partial']);
      expect(allowed.code, allowed.stderr).toBe(0);
      expect(readJson(join(dir, 'with-stopped', 'report.json')).run.status).toBe('partial');

      // every shard asked everything and got only errors: each exits 3, and so does their merge, reports written
      const dead = [1, 2].map((i) => join(dir, `dead-${i}`));
      for (const [i, out] of dead.entries()) expect((await run(['--shard', `${i + 1}/2`, '--retries', '0', '--max-consecutive-errors', '0', '-o', out])).code).toBe(3);
      const merged = await runCli(['merge', ...dead, '-o', join(dir, 'dead'), '--format', 'json']);
      expect(merged.code).toBe(3);
      expect(merged.stderr).toMatch(/^answer-eval: nothing was measured: every one of the 60 questions ended in error .*; the merged reports are written\n$/);
      expect(readJson(join(dir, 'dead', 'report.json')).summary.outcomes.error).toBe(60);
    } finally {
      down = false;
    }
  });
});
