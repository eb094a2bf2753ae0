import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ReportSchema, type QuestionResult, type Report } from '../../src/model/report.js';
import { thresholdAnalysis } from '../../src/score/metrics/thresholds.js';
import { distribution } from '../../src/score/metrics/distribution.js';
import { runCli, type CliResult } from '../helpers/cli.js';
import { tempDir, writeTemp } from '../helpers/tmp.js';

// The figures of a real run, as report.json, summary.md and the console give them: the recommended floor beside its
// cross-validated estimate, and the score distributions of a run with conversations.

const dir = tempDir('answer-eval-figures-');
const sample = new URL('../../datasets/sample/', import.meta.url).pathname;
const read = (out: string, file: string): string => readFileSync(join(dir, out, file), 'utf8');
const report = (out: string): Report => ReportSchema.parse(JSON.parse(read(out, 'report.json')));
const run = async (out: string, ...args: string[]): Promise<CliResult> => {
  const res = await runCli(['run', '-o', join(dir, out), '--format', 'json,md', ...args]);
  expect(res.code, res.stderr).toBe(0);
  return res;
};
const pct = (v: number): string => `${(v * 100).toFixed(1)}%`;

describe('the recommended floor and its cross-validated estimate', () => {
  let console1: CliResult;
  beforeAll(async () => {
    // a low floor: out-of-scope questions get answers, so there is a floor to recommend
    console1 = await run('a', '-d', join(sample, 'questions.csv'), '--floor', '20');
    await run('b', '-d', join(sample, 'questions.csv'), '--floor', '20');
  }, 120_000);

  it('report.json holds it; each fold\'s floor is the one the other folds recommend, measured on the fold', () => {
    const r = report('a');
    const t = r.metrics!.thresholds;
    const cv = t.crossValidated!;
    expect(cv.folds).toBe(5);
    // the definition, from the results: deal the questions the analysis counts, answerable and out-of-scope apart
    const counted = r.results.filter((q) => q.outcome !== 'error' && (q.expected.expect === 'answer' || q.expected.expect === 'fallback'));
    const seen = { answer: 0, fallback: 0 };
    const fold = new Map(counted.map((q) => [q, seen[q.expected.expect as 'answer' | 'fallback']++ % 5]));
    let correct = 0;
    let answered = 0;
    let refused = 0;
    for (let f = 0; f < 5; f++) {
      expect(cv.thresholds[f]).toBe(thresholdAnalysis(counted.filter((q) => fold.get(q) !== f)).recommended!.threshold);
      for (const q of counted.filter((x) => fold.get(x) === f)) {
        const top = q.answers[q.top1Index ?? -1];
        const isAnswered = top !== undefined && (q.outcome === 'correct' || (!top.is_dummy_answer && !top.is_dummy_floor_answer)) && top.answer_score >= cv.thresholds[f]!;
        if (q.expected.expect === 'fallback') refused += isAnswered ? 0 : 1;
        else {
          answered += isAnswered ? 1 : 0;
          correct += isAnswered && q.outcome === 'correct' ? 1 : 0;
        }
      }
    }
    expect(cv.answeredCorrectly).toBe(correct / t.answerable);
    expect(cv.refusedCorrectly).toBe(refused / t.outOfScope);
    expect(cv.coverage).toBe(answered / t.answerable);
    // the held-out figures are no better than the in-sample ones here
    expect(cv.objective).toBeLessThanOrEqual(t.recommended!.objective);
  });

  it('is the same on every run of the same questions', () => {
    expect(report('b').metrics!.thresholds).toEqual(report('a').metrics!.thresholds);
  });

  it('summary.md and the console give both, the in-sample figures called optimistic', () => {
    const t = report('a').metrics!.thresholds;
    const cv = t.crossValidated!;
    const [low, high] = [Math.min(...cv.thresholds), Math.max(...cv.thresholds)];
    const md = read('a', 'summary.md');
    expect(md).toContain(`Recommended floor threshold **${t.recommended!.threshold}**: answers ${pct(t.recommended!.answeredCorrectly)} of in-scope questions correctly, refuses ${pct(t.recommended!.refusedCorrectly)} of out-of-scope ones and answers ${pct(t.recommended!.coverage)} of in-scope questions at all, measured on the questions the floor was chosen on, so optimistic`);
    const floors = low === high ? `the floor chosen was ${low} in every fold` : `the floors chosen ranged from ${low} to ${high}`;
    expect(md).toContain(`Cross-validated (5 folds, each replayed at the floor chosen on the other 4): the service answers ${pct(cv.answeredCorrectly)} of in-scope questions correctly, refuses ${pct(cv.refusedCorrectly)} of out-of-scope ones and answers ${pct(cv.coverage)} of in-scope questions at all; ${floors}.`);
    expect(console1.stdout).toContain(`  recommended floor   ${t.recommended!.threshold}: in-scope answered correctly ${pct(t.recommended!.answeredCorrectly)}, out-of-scope refused ${pct(t.recommended!.refusedCorrectly)}, measured on the questions the floor was chosen on, so optimistic\n`);
    expect(console1.stdout).toContain(`  cross-validated     5 folds: in-scope answered correctly ${pct(cv.answeredCorrectly)}, out-of-scope refused ${pct(cv.refusedCorrectly)} (floors chosen ${low === high ? low : `${low} to ${high}`})\n`);
  });

  it('report --from writes the same estimate twice, and computes it for a report written before it', async () => {
    const rendered = async (from: string, out: string) => {
      const res = await runCli(['report', '--from', from, '-o', join(dir, out)]);
      expect(res.code, res.stderr).toBe(0);
      return report(out);
    };
    const first = await rendered(join(dir, 'a', 'report.json'), 'again-1');
    const second = await rendered(join(dir, 'a', 'report.json'), 'again-2');
    expect(read('again-1', 'report.json')).toBe(read('again-2', 'report.json'));
    expect(first.metrics!.thresholds).toEqual(report('a').metrics!.thresholds);
    // a 1.3 report.json: no crossValidated; its threshold analysis is computed again, with its objective
    const old = JSON.parse(read('a', 'report.json')) as Report;
    delete (old.metrics!.thresholds as { crossValidated?: unknown }).crossValidated;
    const oldPath = writeTemp(dir, 'old.json', JSON.stringify({ ...old, schemaVersion: '1.3' }));
    expect((await rendered(oldPath, 'old')).metrics!.thresholds).toEqual(second.metrics!.thresholds);
    expect(read('old', 'summary.md')).toContain('Cross-validated (5 folds');
  });

  it('with too few out-of-scope questions, says so instead of an estimate', async () => {
    const csv = readFileSync(join(sample, 'questions.csv'), 'utf8').trimEnd().split('\n');
    const fallbacks = csv.filter((l) => l.includes(',fallback,'));
    const few = writeTemp(dir, 'few.csv', `${[csv[0], ...csv.slice(1).filter((l) => !l.includes(',fallback,')), ...fallbacks.slice(0, 3)].join('\n')}\n`);
    const res = await run('few', '-d', few, '--floor', '20');
    const t = report('few').metrics!.thresholds;
    expect(t.recommended).not.toBeNull();
    expect(t.crossValidated).toBeNull();
    const why = `5 folds need at least 5 in-scope and 5 out-of-scope questions (this run has ${t.answerable} in-scope and 3 out-of-scope)`;
    expect(read('few', 'summary.md')).toContain(`Not enough questions to cross-validate it: ${why}.`);
    expect(res.stdout).toContain(`  cross-validated     not enough questions: ${why}\n`);
  });
});

describe('a run with conversations: score distributions by whether the answer was right', () => {
  it('a check_failed turn whose answer met its expectations is counted with the correct ones', async () => {
    await run('dialogues', '-d', join(sample, 'conversations.jsonl'));
    const r = report('dialogues');
    const failedChecks = r.results.filter((q) => q.outcome === 'check_failed' && q.expected.expect === 'answer');
    expect(failedChecks.map((q) => q.id)).toContain('repeat-2#2');
    // as docs/metrics.md says: correct = top-1 scores of correct results and of check_failed turns whose answer met its
    // expectations; not correct = wrong, fallback_missed and abstained results with a top-1
    const top = (q: QuestionResult) => q.answers[q.top1Index ?? -1];
    const scores = (keep: (q: QuestionResult) => boolean) => r.results.filter((q) => keep(q) && top(q) !== undefined).map((q) => top(q)!.answer_score);
    const correct = scores((q) => q.outcome === 'correct' || (q.outcome === 'check_failed' && q.expected.expect === 'answer'));
    const notCorrect = scores((q) => ['wrong', 'fallback_missed', 'abstained'].includes(q.outcome));
    const domain = [Math.min(...correct, ...notCorrect), Math.max(...correct, ...notCorrect)] as const;
    expect(r.metrics!.scores.correct).toEqual(distribution(correct, domain));
    expect(r.metrics!.scores.notCorrect).toEqual(distribution(notCorrect, domain));
    // the floor replay counts those answers as answered correctly too
    const answerable = r.results.filter((q) => q.expected.expect === 'answer' && q.outcome !== 'error' && q.outcome !== 'skipped');
    expect(r.metrics!.thresholds.curve[0]!.answeredCorrectly).toBe(correct.length / answerable.length);
  }, 60_000);
});
