import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReportSchema, type Report } from '../../src/model/report.js';
import { TrendSchema } from '../../src/trend/schema.js';
import { runCli } from '../helpers/cli.js';
import { item, startSpecServer, type SpecServer } from '../helpers/spec-server.js';
import { tempDir, writeTemp } from '../helpers/tmp.js';

const dir = tempDir('answer-eval-rescore-cli-');
const read = (path: string): Report => ReportSchema.parse(JSON.parse(readFileSync(path, 'utf8')));
const shards = [1, 2].map((i) => join(dir, `shard-${i}`));
const rescored = [1, 2].map((i) => join(dir, `rescored-${i}`));
const rows = Array.from({ length: 60 }, (_, i) => (i % 11 === 0 ? `q${i},question ${i},,fallback` : `q${i},question ${i},${i % 7},`));
const dataset = writeTemp(dir, 'qs.csv', `id,question,expected_sequence,expect\n${rows.join('\n')}\n`);
let server: SpecServer;
let down = false;
afterAll(() => server?.close());

describe('answer-eval rescore', () => {
  beforeAll(async () => {
    // a deterministic service: question n gets answer n % 7 (score 50 + n % 40) and answer 3 (score 20)
    server = await startSpecServer((req) => {
      if (down) return { status: 500, body: 'down' };
      const n = Number(/\d+/.exec((req.body['question'] as { text: string }).text)?.[0]);
      return { body: { answers: n % 5 === 0 ? [] : [item(n % 7, 50 + (n % 40)), item(3, 20)] } };
    });
    for (const [i, out] of shards.entries()) {
      const res = await runCli(['run', '-d', dataset, '--base-url', server.url, '--agent', 'a', '--shard', `${i + 1}/2`, '-o', out, '--format', 'json', '-q'], { ANSWER_AGENT_CODE: 'code' });
      expect(res.code).toBe(0);
    }
  }, 60_000);

  it('writes a complete report set marked rescored, which merge, compare and trend read like any other', async () => {
    for (const [i, out] of rescored.entries()) {
      const res = await runCli(['rescore', shards[i]!, '--floor', '70', '-o', out]);
      expect(res.stderr).toBe('');
      expect(res.code).toBe(0);
      expect(res.stdout).toContain(`rescored ${join(shards[i]!, 'report.json')}: same dataset, no alias file, floor 70`);
    }
    const one = read(join(rescored[0]!, 'report.json'));
    expect(one.run.rescored).toMatchObject({ floor: 70, aliases: null, leftOut: 0 });
    for (const file of ['report.html', 'junit.xml', 'summary.md', 'results.csv']) expect(readFileSync(join(rescored[0]!, file), 'utf8').length).toBeGreaterThan(100);

    // merge reads report.json (a rescored directory has no journal)
    const merged = await runCli(['merge', ...rescored, '-o', join(dir, 'merged'), '--format', 'json']);
    expect(merged.stderr).toBe('');
    expect(merged.code).toBe(0);
    const whole = read(join(dir, 'merged', 'report.json'));
    expect(whole.results).toHaveLength(60);
    expect(whole.run.rescored).toMatchObject({ floor: 70 });

    // compare: raising the floor only breaks questions (answers below it are refused now)
    const compared = await runCli(['compare', join(shards[0]!, 'report.json'), join(rescored[0]!, 'report.json'), '-o', join(dir, 'cmp'), '--fail-on', 'regression']);
    expect(compared.code).toBe(1);
    const c = JSON.parse(readFileSync(join(dir, 'cmp', 'compare.json'), 'utf8')) as { counts: { broken: number; fixed: number } };
    expect(c.counts.broken).toBeGreaterThan(0);
    expect(c.counts.fixed).toBe(0);

    // trend: a what-if, shown (--include-what-ifs) after the run it came from, as another service (its floor)
    const trend = await runCli(['trend', shards[0]!, rescored[0]!, '-o', join(dir, 'trend'), '--format', 'json', '--include-what-ifs']);
    expect(trend.code).toBe(0);
    const t = TrendSchema.parse(JSON.parse(readFileSync(join(dir, 'trend', 'trend.json'), 'utf8')));
    expect(t.runs.map((r) => r.rescored)).toEqual([false, true]);
    expect(t.runs[1]!.changes).toEqual([{ kind: 'service', what: 'rescored.floor (none) → 70' }]);
  });

  it('refuses to write over the run it reads, and a floor that is no number', async () => {
    const res = await runCli(['rescore', shards[0]!, '-o', shards[0]!]);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/rescore into another directory/);
    const bad = await runCli(['rescore', shards[0]!, '-o', join(dir, 'x'), '--floor', 'high']);
    expect(bad.code).toBe(2);
  });

  it('a run whose every question ended in error judges to nothing however it is judged again: exit 3, the reports written', async () => {
    down = true;
    try {
      const dead = join(dir, 'dead');
      const res = await runCli(['run', '-d', dataset, '--base-url', server.url, '--agent', 'a', '--retries', '0', '--max-consecutive-errors', '0', '-o', dead, '--format', 'json', '-q'], { ANSWER_AGENT_CODE: 'code' });
      expect(res.code).toBe(3);
      const again = await runCli(['rescore', dead, '--floor', '40', '-o', join(dir, 'dead-40'), '--format', 'json']);
      expect(again.code).toBe(3);
      expect(again.stderr).toMatch(/^answer-eval: nothing was measured: every one of the 60 questions ended in error .*; the rescored reports are written\n$/);
      expect(read(join(dir, 'dead-40', 'report.json')).run.rescored).toMatchObject({ floor: 40 });
    } finally {
      down = false;
    }
  });
});
