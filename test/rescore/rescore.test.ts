import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE_KB, SAMPLE_QUESTIONS, startEngine, type RunningEngine } from '../../src/engine/index.js';
import type { QuestionResult, Report } from '../../src/model/report.js';
import { toReport } from '../../src/model/source.js';
import { writeReports } from '../../src/report/write.js';
import { rescoreReport } from '../../src/rescore/rescore.js';
import { runEvaluation } from '../../src/run/run.js';
import { top1 } from '../../src/score/result.js';
import { tempDir, writeTemp } from '../helpers/tmp.js';

const dir = tempDir('answer-eval-rescore-');
const FLOOR = 62;
let engine: RunningEngine;
let original: Report;
const reportPath = join(dir, 'run', 'report.json');

/** Runs the sample set against an engine (journal and report.json in `out`) and returns the report. */
async function runSample(on: RunningEngine, out: string, dataset = SAMPLE_QUESTIONS, aliases?: string): Promise<Report> {
  const outcome = await runEvaluation({ dataset, baseUrl: on.url, agent: on.agent, agentCode: on.code, embeddedEngine: true, journalDir: out, ...(aliases ? { aliases } : {}) });
  await writeReports(outcome.data, out, ['json']);
  return outcome.report;
}

const view = (r: QuestionResult) => {
  const top = top1(r);
  return { id: r.id, outcome: r.outcome, top: top ? [top.sequence_number, top.answer_score] : null };
};

beforeAll(async () => {
  engine = await startEngine({ kb: SAMPLE_KB });
  original = await runSample(engine, join(dir, 'run'));
});
afterAll(() => engine?.close());

describe('rescore', () => {
  it('with nothing changed gives the report the run wrote: every result, the summary and the metrics', async () => {
    const data = await rescoreReport(reportPath, { now: new Date('2030-01-01T00:00:00Z') });
    const again = toReport(data);
    expect(again.results).toEqual(original.results);
    expect(again.summary).toEqual(original.summary);
    expect(again.metrics).toEqual(original.metrics);
    const { rescored, ...run } = again.run;
    expect(run).toEqual(original.run);
    expect(rescored).toEqual({ at: '2030-01-01T00:00:00.000Z', from: reportPath, dataset: { from: original.run.dataset.sha256, to: original.run.dataset.sha256 }, aliases: null, floor: null, leftOut: 0 });
  });

  it(`with --floor ${FLOOR} gives what an engine at floor ${FLOOR} answers, for every question answered above the run's floor`, async () => {
    const rescored = toReport(await rescoreReport(reportPath, { floor: FLOOR }));
    const strict = await startEngine({ kb: SAMPLE_KB, floorThreshold: FLOOR });
    let fresh: Report;
    try {
      fresh = await runSample(strict, join(dir, 'strict'));
    } finally {
      await strict.close();
    }
    const above = original.results.filter((r) => r.outcome !== 'error' && top1(r) !== undefined && !top1(r)!.is_dummy_floor_answer);
    // the floor must matter: some of them drop below it
    expect(above.filter((r) => top1(r)!.answer_score < FLOOR).length).toBeGreaterThan(3);
    const byId = (report: Report) => new Map(report.results.map((r) => [r.id, r]));
    const [mine, theirs] = [byId(rescored), byId(fresh)];
    for (const r of above) {
      const a = mine.get(r.id)!;
      const b = theirs.get(r.id)!;
      // the engine answers with its floor answer where the rescored list is empty: the same refusal
      expect({ id: r.id, outcome: a.outcome, top: view(a).top }).toEqual({ id: r.id, outcome: b.outcome, top: top1(b)?.is_dummy_floor_answer ? null : view(b).top });
    }
    expect(rescored.summary.outcomes).toEqual(fresh.summary.outcomes);
    expect(rescored.run.rescored).toMatchObject({ floor: FLOOR, leftOut: 0 });
  }, 60_000);

  it('with a corrected dataset: judged against the new expectations, questions it lacks left out, one it adds refused', async () => {
    const [header, ...rows] = readFileSync(SAMPLE_QUESTIONS, 'utf8').trimEnd().split('\n');
    const wrong = original.results.find((r) => r.outcome === 'wrong')!;
    const got = top1(wrong)!;
    const corrected = rows
      .filter((row) => !row.startsWith('q002,'))
      .map((row) => (row.startsWith(`${wrong.id},`) ? `${wrong.id},"${wrong.question.replace(/"/g, '""')}",${got.sequence_number},${got.label},,${wrong.language},` : row));
    const path = writeTemp(dir, 'corrected.csv', `${[header, ...corrected].join('\n')}\n`);
    const report = toReport(await rescoreReport(reportPath, { dataset: path }));
    expect(report.results.map((r) => r.id)).toEqual(original.results.map((r) => r.id).filter((id) => id !== 'q002'));
    const fixed = report.results.find((r) => r.id === wrong.id)!;
    expect(fixed).toMatchObject({ outcome: 'correct', rank: 1, expected: { expect: 'answer', sequence: [String(got.sequence_number)], label: [got.label] } });
    expect(fixed.reason).toBeUndefined();
    expect(report.summary.outcomes.correct).toBe(original.summary.outcomes.correct); // one fixed, q002 (correct) left out
    expect(report.run.dataset).toMatchObject({ path, questions: rows.length - 1 });
    expect(report.run.rescored).toMatchObject({ leftOut: 1, dataset: { from: original.run.dataset.sha256, to: report.run.dataset.sha256 } });

    const added = writeTemp(dir, 'added.csv', `${[header, ...rows, 'new1,a question never asked,1,,,en,', 'new2,another,1,,,en,'].join('\n')}\n`);
    await expect(rescoreReport(reportPath, { dataset: added })).rejects.toThrow(/added\.csv: 2 question\(s\) the run did not ask: "new1", "new2"/);
  });

  it('with an alias file: expected_sequence read through it; by default the alias file the run used', async () => {
    // the dataset expects old numbers (n + 1000) that the aliases map back
    const [header, ...rows] = readFileSync(SAMPLE_QUESTIONS, 'utf8').trimEnd().split('\n');
    const old = rows.map((row) => row.replace(/^([^,]+,(?:"(?:[^"]|"")*"|[^,]*),)(\d+),/, (_, head: string, seq: string) => `${head}${Number(seq) + 1000},`));
    const dataset = writeTemp(dir, 'old-numbers.csv', `${[header, ...old].join('\n')}\n`);
    const aliases = writeTemp(dir, 'aliases.csv', `old,new\n${[...new Set(original.results.flatMap((r) => r.expected.sequence ?? []))].map((s) => `${Number(s) + 1000},${s}`).join('\n')}\n`);
    const withAliases = await runSample(engine, join(dir, 'aliased'), dataset, aliases);
    expect(withAliases.summary.outcomes).toEqual(original.summary.outcomes);
    const again = toReport(await rescoreReport(join(dir, 'aliased', 'report.json')));
    expect(again.run.rescored?.aliases).toBe(aliases);
    expect(again.results).toEqual(withAliases.results);
    const none = writeTemp(dir, 'none.csv', 'old,new\n');
    expect(toReport(await rescoreReport(join(dir, 'aliased', 'report.json'), { aliases: none })).summary.outcomes.correct).toBeLessThan(original.summary.outcomes.correct);
  });
});
