import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ComparisonSchema } from '../../src/compare/schema.js';
import { ReportSchema } from '../../src/model/report.js';
import { fromReport } from '../../src/model/source.js';
import { writeReports } from '../../src/report/write.js';
import { summarize } from '../../src/score/summary.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { prRuns } from './pr-runs.js';

// The audit's repros (see prRuns): a HEAD that is a shard, or a partial run, of the dataset BASE measured lacks some of
// BASE's questions without having removed them; they may have broken, so no regression gate can pass (exit 3).
const dir = tempDir();
const { dataset, kbBroken, base, head, make } = prRuns(dir);
const compare = (b: string, h: string, out: string, ...args: string[]) => runCli(['compare', b, h, '--out', join(dir, out), '--resamples', '200', ...args]);
const text = (file: string) => readFileSync(file, 'utf8');

beforeAll(make, 60_000);

describe('a HEAD that measured only part of the dataset BASE measured', () => {
  it('a shard of the same dataset cannot be judged by a regression gate: exit 3, saying so in every output; without a gate, a warning', async () => {
    const shard = await runCli(['run', '-q', '-d', dataset, '--kb', kbBroken, '--shard', '5/5', '-o', join(dir, 'shard'), '--format', 'json']);
    expect(shard.code).toBe(0);
    const file = join(dir, 'shard', 'report.json');
    const why = `HEAD (${file}) is shard 5/5 of its dataset: 5 of the questions BASE measured are in its other shards, not measured here (not removed); merge the shards first (answer-eval merge) and compare the merged report`;
    const res = await compare(base, file, 'shard-out', '--fail-on', 'regression');
    expect(res.code).toBe(3);
    expect(res.stderr).toBe(`answer-eval: --fail-on regression cannot be judged: ${why}; the reports are written\n`);
    expect(res.stdout).toContain('questions: 1 common, 0 added, 5 removed (5 not measured by HEAD)');
    expect(res.stdout).toContain(`gate FAILED: --fail-on regression cannot be judged: ${why}`);
    const md = text(join(dir, 'shard-out', 'compare.md'));
    expect(md.split('\n')[0]).toMatch(/^\*\*❌ answer-eval: 1 of 1 gate FAILED\*\*: --fail-on regression cannot be judged: HEAD /);
    expect(md).not.toContain('every gate passed');
    const c = ComparisonSchema.parse(JSON.parse(text(join(dir, 'shard-out', 'compare.json'))));
    expect([c.gates?.passed, c.unmeasured, c.head.shard]).toEqual([false, { questions: 5, why: 'shard' }, { index: 5, count: 5, questions: 1 }]);

    const plain = await compare(base, file, 'shard-plain');
    expect(plain.code).toBe(0);
    expect(plain.stdout).toContain(`warning: ${why}`);
    expect(text(join(dir, 'shard-plain', 'compare.md'))).toContain('⚠️ HEAD (');
  });

  it('a PARTIAL run cannot be judged either: exit 3 naming --resume; the first line of compare.md does not say every gate passed', async () => {
    const full = ReportSchema.parse(JSON.parse(text(head)));
    const results = full.results.slice(0, 2);
    const partial = { ...full, run: { ...full.run, status: 'partial' as const, stopReason: 'interrupted (SIGINT)' }, summary: summarize(results), results };
    await writeReports(fromReport(partial), join(dir, 'partial'), ['json']);
    const file = join(dir, 'partial', 'report.json');
    const res = await compare(base, file, 'partial-out', '--fail-on', 'regression', '--max-broken', '0');
    expect(res.code).toBe(3);
    const why = `HEAD (${file}) is a PARTIAL run (it stopped after 2 of its 6 questions): 4 of the questions BASE measured were not measured (not removed); finish it (answer-eval run --resume <its directory>), then compare`;
    expect(res.stderr).toBe(`answer-eval: --fail-on regression and --max-broken cannot be judged: ${why}; the reports are written\n`);
    expect(text(join(dir, 'partial-out', 'compare.md')).split('\n')[0]).toContain('2 of 2 gates FAILED');
  });

  it('run --baseline on a shard with a regression gate: exit 3 too', async () => {
    const res = await runCli(['run', '-q', '-d', dataset, '--kb', kbBroken, '--shard', '1/2', '-o', join(dir, 'run-shard'), '--baseline', base, '--fail-on', 'regression']);
    expect(res.code).toBe(3);
    expect(res.stderr).toContain('answer-eval: --fail-on regression cannot be judged: HEAD (');
    expect(res.stderr).toContain('is shard 1/2 of its dataset: 3 of the questions BASE measured are in its other shards');
  });
});
