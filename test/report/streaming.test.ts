import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ALL_FORMATS, REPORT_FORMATS, type ReportFormat } from '../../src/report/formats.js';
import type { QuestionResult, ReportAnswer } from '../../src/model/report.js';
import type { ReportData, ResultSource } from '../../src/model/source.js';
import { writeReports } from '../../src/report/write.js';
import { computeMetrics, scoreResults, withMetrics as withMetricsOf } from '../../src/score/metrics/index.js';
import { summarize } from '../../src/score/summary.js';
import { makeReport } from '../helpers/report-fixture.js';
import { tempDir } from '../helpers/tmp.js';

const answer = (seq: number, score: number, category: string): ReportAnswer => ({
  answer: `Answer ${seq} about ${category}.`, sequence_number: seq, answer_score: score, tags: [category], label: `${category}-${seq}`, category,
  is_agent_answer: true, is_dummy_answer: false, is_dummy_floor_answer: seq === 999, is_suggestion_answer: false,
  is_international_question: false, is_dialog_in_progress: false, is_dialogue_answer: false, delay: 0,
});

const OUTCOMES = ['correct', 'correct', 'correct', 'wrong', 'abstained', 'fallback_ok', 'fallback_missed', 'unlabeled', 'error'] as const;

/** Result i of a synthetic run, made when asked for and never kept. */
function synthetic(i: number): QuestionResult {
  const outcome = OUTCOMES[(i * 7) % OUTCOMES.length]!;
  const category = ['billing', 'shipping', 'returns'][i % 3]!;
  const seq = 1 + (i % 40);
  const score = ((i * 37) % 1000) / 1000;
  const answers = outcome === 'error' ? [] : outcome === 'abstained' || outcome === 'fallback_ok' ? [answer(999, 0.1, 'fallback')] : [answer(outcome === 'correct' ? seq : seq + 1, score, category), answer(seq + 2, score / 2, category)];
  const expect = outcome === 'unlabeled' ? null : outcome.startsWith('fallback') ? 'fallback' : 'answer';
  return {
    id: `s${i}`, line: i + 2, question: `question ${i} about ${category}?`, language: ['en', 'de'][i % 2]!, tags: i % 5 === 0 ? ['faq', 'web'] : ['app'],
    expected: expect === 'answer' ? { expect, label: [`${category}-${seq}`] } : { expect },
    outcome, top1Index: answers.length > 0 ? 0 : null, answers, unordered: false,
    latencyMs: outcome === 'error' ? null : 50 + (i % 300), attempts: 1,
    error: outcome === 'error' ? { kind: 'timeout', message: 'timed out' } : null,
    rank: expect === 'answer' && outcome !== 'error' ? (outcome === 'correct' ? 1 : null) : null,
    margin: answers.length > 1 ? score / 2 : null,
  };
}

/** A source that generates `n` results on the fly and counts its passes. */
function generated(n: number): ResultSource & { passes: number } {
  const source = {
    count: n,
    passes: 0,
    *[Symbol.iterator]() {
      source.passes++;
      for (let i = 0; i < n; i++) yield synthetic(i);
    },
  };
  return source;
}

const N = 4_000; // passes are counted, not timed: a few thousand results show them as well as a million
/** Passes over the results each format may take: with metrics, and without (slices, confusions and charts counted). */
// with metrics, and without (an older report: withMetrics computes them first, in two passes)
const MAX_PASSES: Record<ReportFormat, [number, number]> = { json: [1, 3], csv: [1, 3], junit: [1, 3], md: [1, 3], html: [3, 5] };

describe('streaming over a ResultSource that is never held in memory', () => {
  const source = generated(N);
  const summary = summarize(source);
  const metrics = computeMetrics(source);

  it('summarizes in one pass and computes metrics in two', () => {
    expect(source.passes).toBe(3);
    expect(summary.total).toBe(N);
    expect(metrics.breakdowns.category.map((s) => s.key)).toEqual(['billing', 'shipping', 'returns', '(out of scope)', '(category unknown)'].sort());
  });

  it('gives the summary and the metrics together in the same two passes', () => {
    const again = generated(N);
    const both = scoreResults(again);
    expect(again.passes).toBe(2);
    expect(both).toEqual({ summary, metrics });
  });

  for (const withMetrics of [true, false]) {
    for (const format of ALL_FORMATS) {
      it(`renders ${format} ${withMetrics ? 'with' : 'without'} metrics, in at most ${MAX_PASSES[format][withMetrics ? 0 : 1]} passes`, () => {
        const results = generated(N);
        const { results: _, ...head } = makeReport(0);
        const data: ReportData = { head: { ...head, summary, ...(withMetrics ? { metrics } : { metrics: undefined }) }, results };
        let bytes = 0;
        let chunks = 0;
        for (const chunk of REPORT_FORMATS[format].render(withMetricsOf(data))) {
          bytes += chunk.length;
          chunks++;
        }
        expect(results.passes).toBeGreaterThanOrEqual(1);
        expect(results.passes).toBeLessThanOrEqual(MAX_PASSES[format][withMetrics ? 0 : 1]);
        expect(bytes).toBeGreaterThan(format === 'md' ? 500 : N * 20);
        if (format !== 'md') expect(chunks).toBeGreaterThan(1);
      });
    }
  }

  it('writeReports streams every format to disk and leaves no temporary file', async () => {
    const dir = tempDir();
    const { results: _, ...head } = makeReport(0);
    const written = await writeReports({ head: { ...head, summary, metrics }, results: generated(2_000) }, dir);
    expect(written).toHaveLength(ALL_FORMATS.length);
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    expect(readFileSync(`${dir}/results.csv`, 'utf8').trim().split('\n')).toHaveLength(2_001);
  });

  it('a source failing mid-pass leaves neither a half report nor a temporary file', async () => {
    const dir = tempDir();
    const { results: _, ...head } = makeReport(0);
    const failing: ResultSource = {
      count: 10,
      *[Symbol.iterator]() {
        yield synthetic(0);
        throw new Error('journal unreadable');
      },
    };
    await expect(writeReports({ head, results: failing }, dir, ['json'])).rejects.toThrow('journal unreadable');
    expect(readdirSync(dir)).toEqual([]);
  });
});
