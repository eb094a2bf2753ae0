import type { Metrics } from '../../report/metrics-schema.js';
import type { QuestionResult } from '../../report/schema.js';
import { latencyPercentiles } from '../summary.js';
import { top1 } from '../result.js';
import { categoryKeys, sliceBy } from './breakdowns.js';
import { confusions } from './confusions.js';
import { distribution, extentOf, histogram } from './distribution.js';
import { rankMetrics } from './rank-metrics.js';
import { thresholdAnalysis } from './thresholds.js';
import { wilson } from './wilson.js';

/** report.metrics: everything beyond the summary, from the results alone (pure). */
export function computeMetrics(results: readonly QuestionResult[]): Metrics {
  const total = results.length;
  const count = (p: (r: QuestionResult) => boolean) => results.filter(p).length;
  const outcome = (...o: QuestionResult['outcome'][]) => count((r) => o.includes(r.outcome));
  const topFlag = (flag: 'is_dummy_answer' | 'is_dummy_floor_answer' | 'is_suggestion_answer') => count((r) => top1(r)?.[flag] === true);

  const correct: number[] = [];
  const notCorrect: number[] = [];
  for (const r of results) {
    const top = top1(r);
    if (top === undefined || r.error !== null || r.outcome === 'unlabeled' || r.outcome === 'fallback_ok') continue;
    (r.outcome === 'correct' ? correct : notCorrect).push(top.answer_score);
  }
  const scoreDomain = extentOf([...correct, ...notCorrect]);
  const latencies = results.flatMap((r) => (r.error === null && r.latencyMs !== null ? [r.latencyMs] : []));
  const byCategory = categoryKeys(results);

  return {
    intervals: {
      top1Accuracy: wilson(outcome('correct', 'fallback_ok'), total - outcome('unlabeled', 'error')),
      answerableAccuracy: wilson(outcome('correct'), outcome('correct', 'wrong', 'abstained')),
      rates: {
        dummy: wilson(topFlag('is_dummy_answer'), total),
        floor: wilson(topFlag('is_dummy_floor_answer'), total),
        suggestion: wilson(topFlag('is_suggestion_answer'), total),
        empty: wilson(count((r) => r.error === null && r.answers.length === 0), total),
        error: wilson(outcome('error'), total),
      },
    },
    rank: rankMetrics(results),
    scores: { correct: distribution(correct, scoreDomain), notCorrect: distribution(notCorrect, scoreDomain) },
    latency: { ...latencyPercentiles(latencies), histogram: histogram(latencies) },
    thresholds: thresholdAnalysis(results),
    breakdowns: {
      language: sliceBy(results, (r) => [r.language]),
      tag: sliceBy(results, (r) => r.tags),
      category: sliceBy(results, byCategory),
    },
    confusions: confusions(results),
  };
}
