import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ReportSchema, type Report } from '../../src/model/report.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

// Issue 12 (c): four shards of an embedded run (each started its own engine, on its own ephemeral port) merge
// into the report of one run; a merge missing shard 3 is refused, naming it, unless --allow-partial. Shard 4 runs
// gentler (-c 2 --rps 50, as re-run after 429s): options that change no answer do not keep it out.
const dir = tempDir();
const readReport = (out: string): Report => ReportSchema.parse(JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')));
const shardDirs = [1, 2, 3, 4].map((i) => join(dir, `shard-${i}`));
const view = (r: Report) => r.results.map(({ id, outcome, top1Index, answers, rank }) => ({ id, outcome, top1Index, answers, rank }));

beforeAll(async () => {
  const runs = await Promise.all([
    runCli(['run', '-o', join(dir, 'single'), '--format', 'json', '-q', '--floor', '36']),
    ...shardDirs.map((out, i) => runCli(['run', '--shard', `${i + 1}/4`, '-o', out, '--format', 'json', '-q', '--floor', '36', ...(i === 3 ? ['-c', '2', '--rps', '50'] : [])])),
  ]);
  for (const run of runs) expect([run.code, run.stderr]).toEqual([0, '']);
}, 60_000);

describe('embedded shards', () => {
  it('four embedded shards merge into the report of a single run', async () => {
    const urls = new Set(shardDirs.map((d) => readReport(d).run.baseUrl));
    expect(urls.size).toBe(4); // four engines, four ports: not what identifies the run
    const merged = await runCli(['merge', ...shardDirs, '-o', join(dir, 'merged'), '--format', 'json']);
    expect(merged.stderr).toBe('');
    expect(merged.code).toBe(0);
    const single = readReport(join(dir, 'single'));
    const report = readReport(join(dir, 'merged'));
    expect(view(report)).toEqual(view(single));
    const { latencyMs: _a, ...summary } = report.summary;
    const { latencyMs: _b, ...singleSummary } = single.summary;
    expect(summary).toEqual(singleSummary);
    expect(report.metrics?.thresholds.recommended).toEqual(single.metrics?.thresholds.recommended);
    expect(report.run).toMatchObject({ status: 'completed', embeddedEngine: true, engine: single.run.engine, mergedFrom: shardDirs.map((d) => join(d, 'report.json')) });
    expect(readReport(shardDirs[3]!).run.options).toMatchObject({ concurrency: 2, rps: 50 });
    expect(report.run.options).toEqual(readReport(shardDirs[0]!).run.options); // the first shard's
  });

  it('a merge missing shard 3 exits 2 naming it; --allow-partial merges the rest and marks the report partial', async () => {
    const without3 = [shardDirs[0]!, shardDirs[1]!, shardDirs[3]!];
    const refused = await runCli(['merge', ...without3, '-o', join(dir, 'without-3'), '--format', 'json']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(
      "answer-eval: cannot merge: shard 3/4 is missing (given: 1, 2, 4 of 4); give every shard's directory, or --allow-partial to merge these into a report marked partial\n",
    );
    const partial = await runCli(['merge', ...without3, '-o', join(dir, 'without-3'), '--format', 'json', '--allow-partial']);
    expect(partial.code).toBe(0);
    expect(partial.stdout).toContain('PARTIAL run');
    const report = readReport(join(dir, 'without-3'));
    expect(report.run).toMatchObject({ status: 'partial', stopReason: 'shard 3/4 is missing' });
    expect(report.summary.total).toBe(report.results.length);
    expect(report.results.length).toBe(113 - readReport(shardDirs[2]!).results.length);
  });

  it('refuses shards of another engine identity (another floor), naming what differs', async () => {
    const other = join(dir, 'other-floor');
    expect((await runCli(['run', '--shard', '3/4', '-o', other, '--format', 'json', '-q', '--floor', '50'])).code).toBe(0);
    const res = await runCli(['merge', shardDirs[0]!, shardDirs[1]!, other, shardDirs[3]!, '-o', join(dir, 'x')]);
    expect(res.code).toBe(2);
    expect(res.stderr).toBe(`answer-eval: ${join(other, 'report.json')} does not belong with ${join(shardDirs[0]!, 'report.json')}: engine.floorThreshold differs (50 vs 36)\n`);
  });
});
