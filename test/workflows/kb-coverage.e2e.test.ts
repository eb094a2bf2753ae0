import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ComparisonSchema } from '../../src/compare/schema.js';
import { SAMPLE_KB, SAMPLE_QUESTIONS } from '../../src/engine/index.js';
import { ReportSchema, type Report } from '../../src/model/report.js';
import { runCli } from '../helpers/cli.js';
import { tempDir, writeTemp } from '../helpers/tmp.js';

// Issue 38, point 3: the sample question set with every question of entries 30-33 removed, run with --kb against the
// embedded engine, lists those entries as untested in report.json, summary.md and compare, and --min-coverage fails
// it; merge and rescore keep the coverage right. What is expected is read from the files, not from answer-eval.
const dir = tempDir('answer-eval-coverage-');
const REMOVED = new Set(['submit_reading', 'read_meter', 'smart_meter', 'meter_faulty']); // entries 30-33
const lines = readFileSync(SAMPLE_QUESTIONS, 'utf8').trimEnd().split('\n');
const kept = lines.filter((line) => !line.split(',').some((cell) => REMOVED.has(cell)));
const dataset = writeTemp(dir, 'without-meters.csv', `${kept.join('\n')}\n`);

interface KbLine { sequence_number: number; label?: string; dialogue_only?: boolean }
const kb = readFileSync(SAMPLE_KB, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as KbLine);
// the sample's questions name every entry but the dialogue-only ones (only a conversation reaches them)
const untestedBefore = kb.filter((e) => e.dialogue_only).map((e) => e.sequence_number);
const untestedAfter = kb.filter((e) => e.dialogue_only || REMOVED.has(e.label ?? '')).map((e) => e.sequence_number);

const readReport = (out: string): Report => ReportSchema.parse(JSON.parse(readFileSync(join(dir, out, 'report.json'), 'utf8')));
const untested = (r: Report) => r.coverage!.untested.map((e) => e.sequence);

let pr: Awaited<ReturnType<typeof runCli>>;

beforeAll(async () => {
  expect(lines.length - kept.length).toBe(9); // q032-q040
  const main = await runCli(['run', '-o', join(dir, 'main'), '--format', 'json', '-q']);
  expect([main.code, main.stderr]).toEqual([0, '']);
  pr = await runCli(['run', '-d', dataset, '--kb', SAMPLE_KB, '--min-coverage', '0.7', '--baseline', join(dir, 'main'), '-o', join(dir, 'pr'), '--format', 'json,md', '-q']);
}, 60_000);

describe('coverage of the knowledge base by the question set', () => {
  it('a run with --kb over a set that leaves entries untested lists them in report.json, and --min-coverage 0.7 fails it (exit 1)', () => {
    expect(pr.code, pr.stderr).toBe(1);
    const report = readReport('pr');
    const c = report.coverage!;
    expect(untested(report)).toEqual(untestedAfter);
    expect(untested(report)).toEqual(expect.arrayContaining([30, 31, 32, 33]));
    expect({ entries: c.entries, tested: c.tested, share: c.share, knowledgeBase: c.knowledgeBase, floor: c.floor }).toEqual({
      entries: kb.length,
      tested: kb.length - untestedAfter.length,
      share: (kb.length - untestedAfter.length) / kb.length,
      knowledgeBase: SAMPLE_KB,
      floor: 50,
    });
    expect(c.untested.find((e) => e.sequence === 30)).toEqual({ sequence: 30, label: 'submit_reading', title: 'Meter readings' });
    // no question asked for them, so none of them was given first; every entry given first was returned
    for (const s of [30, 31, 32, 33]) expect(c.neverTop1.map((e) => e.sequence)).toContain(s);
    for (const e of c.byEntry) expect(e.top1).toBeLessThanOrEqual(e.returned);
    expect(report.gates).toEqual({
      passed: false,
      results: [expect.objectContaining({ gate: '--min-coverage', metric: 'coverage', threshold: 0.7, value: c.share, passed: false })],
    });
    const message = report.gates!.results[0]!.message;
    expect(message).toBe(`knowledge-base coverage ${c.share!.toFixed(3)} (${c.tested}/${c.entries} entries tested) < --min-coverage 0.7 (short by ${(0.7 - c.share!).toFixed(3)}); untested: 30 submit_reading, 31 read_meter, 32 smart_meter, 33 meter_faulty, 200 meter_reading_start, 201 meter_reading_number, 202 meter_number_missing, 203 meter_reading_value, 204 meter_reading_two_rates, 210 bill_dispute, ... (15 more)`);
    expect(pr.stderr).toContain(`answer-eval: gate failed:\n  - ${message}`);
  });

  it('the console and summary.md give the figure and the untested entries; compare says which entries lost their last test', () => {
    const c = readReport('pr').coverage!;
    const pctText = `${(c.share! * 100).toFixed(1)}%`;
    expect(pr.stdout).toContain(`  KB coverage         ${pctText} (${c.tested} of the 81 entries of kb.jsonl tested): untested 25, never top-1 ${c.neverTop1.length}, reached only below the floor 0\n`);
    expect(pr.stdout).toContain('  untested entries    30 submit_reading, 31 read_meter, 32 smart_meter, 33 meter_faulty, 200 meter_reading_start and 20 more\n');
    const md = readFileSync(join(dir, 'pr', 'summary.md'), 'utf8');
    expect(md).toContain(`| **${pctText}** |`); // the headline table's last column
    expect(md).toContain(`Knowledge-base coverage **${pctText}** (${c.tested} of the 81 entries of kb.jsonl tested) · untested 25`);
    expect(md).toContain('| 30 | submit\\_reading | Meter readings |');
    expect(md).toContain('| | and 5 more | report.json lists every one |');

    const comparison = ComparisonSchema.parse(JSON.parse(readFileSync(join(dir, 'pr', 'compare.json'), 'utf8')));
    const k = comparison.kbCoverage!;
    expect(k.lostLastTest.map((e) => e.sequence)).toEqual([30, 31, 32, 33]);
    expect(k.newlyTested).toEqual([]);
    expect(k.addedUntested).toEqual([]);
    expect(k.share.delta).toBeCloseTo(-4 / 81, 12);
    expect(pr.stdout).toContain('  lost their last test (4): 30 submit_reading, 31 read_meter, 32 smart_meter, 33 meter_faulty\n');
    expect(readFileSync(join(dir, 'pr', 'compare.md'), 'utf8')).toContain('### Lost their last test (4): tested in BASE, untested in HEAD');
  });

  it('compare --min-coverage judges HEAD; a HEAD without coverage (an older report) cannot be judged: exit 3, and report --kb adds it', async () => {
    const failed = await runCli(['compare', join(dir, 'main'), join(dir, 'pr'), '-o', join(dir, 'cmp'), '--min-coverage', '0.7']);
    expect(failed.code).toBe(1);
    expect(failed.stdout).toContain('  lost their last test (4): 30 submit_reading');
    const { coverage: _, ...older } = readReport('pr');
    const head = writeTemp(dir, 'older.json', JSON.stringify({ ...older, schemaVersion: '1.5' }));
    const unjudged = await runCli(['compare', join(dir, 'main'), head, '-o', join(dir, 'cmp-older'), '--min-coverage', '0.7']);
    expect(unjudged.code).toBe(3);
    expect(unjudged.stderr).toContain(`answer-eval: --min-coverage cannot be judged: HEAD (${head}) has no knowledge-base coverage: it was made without a knowledge base: give the one beside the service with --kb FILE`);
    expect(unjudged.stdout).toContain('KB coverage 74.1% -> n/a (HEAD has no knowledge-base coverage: it was made without a knowledge base)');
    // report --from ... --kb gives the saved run its coverage, as the run would have counted it
    const added = await runCli(['report', '--from', head, '--kb', SAMPLE_KB, '-o', join(dir, 'readded'), '--format', 'json']);
    expect([added.code, added.stderr]).toEqual([0, '']);
    expect(readReport('readded').coverage).toEqual(readReport('pr').coverage);
  });

  it('--min-coverage beside a remote service without --kb is refused before anything is asked (exit 2)', async () => {
    const res = await runCli(['run', '-d', dataset, '--base-url', 'http://127.0.0.1:9', '--agent', 'a', '--min-coverage', '0.5', '-o', join(dir, 'remote')]);
    expect(res.code).toBe(2);
    expect(res.stderr).toBe('answer-eval: --min-coverage needs the knowledge base beside the service: give it with --kb FILE\n');
  });

  it('merged shards cover the union of their questions', async () => {
    const shards = [1, 2].map((i) => join(dir, `shard-${i}`));
    const runs = await Promise.all(shards.map((out, i) => runCli(['run', '-d', dataset, '--shard', `${i + 1}/2`, '-o', out, '--format', 'json', '-q'])));
    for (const run of runs) expect([run.code, run.stderr]).toEqual([0, '']);
    const alone = shards.map((s) => readReport(s.slice(dir.length + 1)).coverage!.tested);
    const merged = await runCli(['merge', ...shards, '-o', join(dir, 'merged'), '--format', 'json']);
    expect([merged.code, merged.stderr]).toEqual([0, '']);
    const union = readReport('merged').coverage!;
    const whole = readReport('pr').coverage!;
    // each shard alone tests fewer entries than the union; the union is the coverage of the whole set
    for (const tested of alone) expect(tested).toBeLessThan(union.tested);
    expect(union).toEqual(whole);
  });

  it('rescore recounts it: against a corrected dataset, and at a higher floor', async () => {
    const fewer = await runCli(['rescore', join(dir, 'main'), '-o', join(dir, 'rescored'), '-d', dataset, '--format', 'json']);
    expect([fewer.code, fewer.stderr]).toEqual([0, '']);
    expect(untested(readReport('main'))).toEqual(untestedBefore);
    expect(untested(readReport('rescored'))).toEqual(untestedAfter);

    const raised = await runCli(['rescore', join(dir, 'main'), '-o', join(dir, 'floor-70'), '--floor', '70', '--format', 'json']);
    expect([raised.code, raised.stderr]).toEqual([0, '']);
    const c = readReport('floor-70').coverage!;
    expect(c.floor).toBe(70);
    // from the run's own answers: the entries it returned, each only ever under 70
    const best = new Map<number, number>();
    for (const r of readReport('main').results) {
      for (const a of r.answers) if (!a.is_dummy_floor_answer) best.set(a.sequence_number, Math.max(best.get(a.sequence_number) ?? -Infinity, a.answer_score));
    }
    const onlyUnder70 = [...best].filter(([, score]) => score < 70).map(([s]) => s).sort((a, b) => a - b);
    expect(onlyUnder70.length).toBeGreaterThan(0);
    expect(c.belowFloorOnly.map((e) => e.sequence).sort((a, b) => a - b)).toEqual(onlyUnder70);
    expect(untested(readReport('floor-70'))).toEqual(untestedBefore);
  });
});
