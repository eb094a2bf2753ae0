import { cpSync, mkdirSync, readFileSync, rmSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SAMPLE_KB } from '../../src/engine/index.js';
import { TrendSchema } from '../../src/trend/schema.js';
import { runCli } from '../helpers/cli.js';
import { tempDir, writeTemp } from '../helpers/tmp.js';

// A nightly gate is about tonight's run. When tonight's run cannot be read (its report.json cut off or of a newer
// schema, or only its journal is there), judging the gates on last night's run would pass a night nobody looked at:
// the gates cannot be judged (exit 3). A run that cannot be read but is older than the latest one read stays a
// warning: an old broken night must not fail every nightly gate after it.

const dir = tempDir('answer-eval-trend-stale-');
const hist = join(dir, 'hist');
const saved = join(dir, 'saved');
const night = (n: number) => join(hist, `n${n}`);
const report = (n: number) => join(night(n), 'report.json');
const startedAt = (path: string) => (JSON.parse(readFileSync(path, 'utf8')) as { run: { startedAt: string } }).run.startedAt;
const journalStart = (n: number) => (JSON.parse(readFileSync(join(night(n), 'journal.jsonl'), 'utf8').split('\n')[0]!) as { startedAt: string }).startedAt;
const trendJson = (out: string) => TrendSchema.parse(JSON.parse(readFileSync(join(out, 'trend.json'), 'utf8')));
let outs = 0;
const trend = (...args: string[]) => {
  const out = join(dir, `trend-${++outs}`);
  return runCli(['trend', hist, '-o', out, ...args]).then((res) => ({ ...res, out }));
};

beforeAll(async () => {
  // night 3 runs on a knowledge base without entry 12: questions that passed on nights 1 and 2 fail (new failures)
  const kb = writeTemp(dir, 'kb.jsonl', readFileSync(SAMPLE_KB, 'utf8').split('\n').filter((l) => !l.includes('"sequence_number": 12,')).join('\n'));
  for (const n of [1, 2, 3]) {
    const res = await runCli(['run', '-o', night(n), '--format', 'json', '-q', ...(n === 3 ? ['--kb', kb] : [])]);
    expect(res.code, res.stderr).toBe(0);
  }
  cpSync(hist, saved, { recursive: true });
}, 60_000);

beforeEach(() => {
  rmSync(hist, { recursive: true, force: true });
  cpSync(saved, hist, { recursive: true });
});

describe('trend gates when the newest run cannot be read', () => {
  it('read whole, night 3 fails the gate (its new failures)', async () => {
    const res = await trend('--max-new-failures', '0', '--format', 'json');
    expect(res.code, res.stderr).toBe(1);
    expect(res.stdout).toMatch(/gate FAILED: \d+ new failures > --max-new-failures 0/);
  });

  it("tonight's report.json cut off in its results: the gates cannot be judged (exit 3), every file written", async () => {
    truncateSync(report(3), Math.floor(readFileSync(report(3)).length * 0.6));
    const res = await trend('--max-new-failures', '0', '--max-flaky', '5');
    expect(res.code, res.stderr).toBe(3);
    const why = `${report(3)}, which could not be read, started at ${startedAt(join(saved, 'n3', 'report.json'))}, after the latest run read (${report(2)}, started ${startedAt(report(2))})`;
    expect(res.stderr).toMatch(new RegExp(`^answer-eval: warning: ${report(3)} is left out of the trend: cut off: `));
    expect(res.stderr).toContain(`answer-eval: ${why}; no gate can be judged on an older run (write it again, or move it out of the history)\n`);
    expect(res.stdout).toContain(`gate FAILED: --max-new-failures cannot be judged: ${why}\n`);
    expect(res.stdout).toContain(`gate FAILED: --max-flaky cannot be judged: ${why}\n`);
    expect(res.stdout).not.toContain('gate passed');
    const t = trendJson(res.out);
    expect(t.verdict).toBe('failed');
    expect(t.gates.map((g) => [g.gate, g.passed])).toEqual([['--max-new-failures', false], ['--max-flaky', false]]);
    expect(readFileSync(join(res.out, 'trend.md'), 'utf8').split('\n')[0]).toContain('cannot be judged');

    // without a gate: the warning, and exit 0
    const plain = await trend('--format', 'json');
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stderr).toMatch(new RegExp(`^answer-eval: warning: ${report(3)} is left out of the trend: cut off: [^\\n]*\\n$`));
  });

  it('a history of one readable run and a newer cut-off one does not pass --max-new-failures 0', async () => {
    truncateSync(report(3), 20_000);
    const res = await runCli(['trend', night(1), night(3), '-o', join(dir, 'trend-one'), '--max-new-failures', '0', '--format', 'json']);
    expect(res.code, res.stderr).toBe(3);
    expect(res.stdout).toContain(`gate FAILED: --max-new-failures cannot be judged: ${report(3)}, which could not be read, started at `);
  });

  it("cut off in its head: the run's journal tells when it started", async () => {
    truncateSync(report(3), 300);
    const res = await trend('--max-new-failures', '0', '--format', 'json');
    expect(res.code, res.stderr).toBe(3);
    expect(res.stdout).toContain(`gate FAILED: --max-new-failures cannot be judged: ${report(3)}, which could not be read, started at ${journalStart(3)}, after the latest run read`);
  });

  it('a report.json of a newer schema version: exit 3 with a gate', async () => {
    writeFileSync(report(3), readFileSync(report(3), 'utf8').replace(/"schemaVersion": "[^"]+"/, '"schemaVersion": "9.0"'));
    const res = await trend('--max-new-failures', '0', '--format', 'json');
    expect(res.code, res.stderr).toBe(3);
    expect(res.stderr).toContain(`answer-eval: warning: ${report(3)} is left out of the trend: schemaVersion 9.0 cannot be read`);
    expect(res.stdout).toContain(`gate FAILED: --max-new-failures cannot be judged: ${report(3)}, which could not be read, started at ${journalStart(3)}`);
  });

  it('a run killed before its report (its journal only): exit 3 with a gate, naming the directory', async () => {
    rmSync(report(3));
    const res = await trend('--max-new-failures', '0', '--format', 'json');
    expect(res.code, res.stderr).toBe(3);
    expect(res.stderr).toContain(`answer-eval: warning: ${night(3)} is left out of the trend: it holds a run's journal but no report.json`);
    expect(res.stdout).toContain(`gate FAILED: --max-new-failures cannot be judged: ${night(3)}, which could not be read, started at ${journalStart(3)}, after the latest run read (${report(2)}, `);
  });

  it('neither a readable head nor a journal: the time the file was last written decides', async () => {
    // a lone report.json cut off before its start time, with no journal beside it
    const lone = join(hist, 'n4');
    mkdirSync(lone);
    writeFileSync(join(lone, 'report.json'), readFileSync(report(3)).subarray(0, 60));
    const res = await trend('--max-new-failures', '5', '--format', 'json');
    expect(res.code, res.stderr).toBe(3);
    expect(res.stdout).toMatch(
      new RegExp(`gate FAILED: --max-new-failures cannot be judged: ${join(lone, 'report.json')}, which could not be read, was last written at \\S+ \\(when it started cannot be read\\), after the latest run read \\(${report(3)}, started `),
    );
    // written long before the latest run read: a warning, and the gate is judged
    utimesSync(join(lone, 'report.json'), new Date('2020-01-01T00:00:00Z'), new Date('2020-01-01T00:00:00Z'));
    const old = await trend('--max-new-failures', '5', '--format', 'json');
    expect(old.code, old.stderr).toBe(0);
    expect(old.stdout).toMatch(/gate passed: \d+ new failures <= --max-new-failures 5/);
  });
});

describe('an old run that cannot be read, in the middle of the history, stays a warning', () => {
  it('cut off in its results: the gate is judged on the latest run', async () => {
    truncateSync(report(2), Math.floor(readFileSync(report(2)).length * 0.6));
    const res = await trend('--max-new-failures', '5', '--format', 'json');
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toMatch(new RegExp(`^answer-eval: warning: ${report(2)} is left out of the trend: cut off: [^\\n]*\\n$`));
    expect(res.stdout).toMatch(/gate passed: [1-5] new failures? <= --max-new-failures 5/);
    const failed = await trend('--max-new-failures', '0', '--format', 'json');
    expect(failed.code, failed.stderr).toBe(1); // judged, and night 3's new failures fail it
  });

  it('cut off in its head, and a night killed before its report: their journals say they are older', async () => {
    truncateSync(report(2), 300);
    rmSync(report(1));
    const res = await trend('--max-new-failures', '5', '--format', 'json');
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr.split('\n').filter((l) => l.includes('is left out of the trend'))).toHaveLength(2);
    expect(res.stdout).toMatch(/gate passed: /);
  });

  it('a lone report.json of a newer schema, copied in just now (no journal): the start time at its top says it is older', async () => {
    const lone = join(hist, 'n0');
    mkdirSync(lone);
    writeFileSync(join(lone, 'report.json'), readFileSync(report(1), 'utf8').replace(/"schemaVersion": "[^"]+"/, '"schemaVersion": "9.0"'));
    const res = await trend('--max-new-failures', '5', '--format', 'json');
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toContain(`answer-eval: warning: ${join(lone, 'report.json')} is left out of the trend: schemaVersion 9.0 cannot be read`);
    expect(res.stdout).toMatch(/gate passed: /);
  });
});
