import type { Metrics } from '../../report/metrics-schema.js';
import type { QuestionResult } from '../../report/schema.js';
import type { ResultSource } from '../../report/source.js';
import { LatencyRecorder } from '../latency.js';
import { zeroCounts } from '../outcome.js';
import { top1 } from '../result.js';
import { CategoryIndex, SliceGroups } from './breakdowns.js';
import { ConfusionCounter } from './confusions.js';
import { BinCounter, distribution, Extent } from './distribution.js';
import { FloatList } from './floats.js';
import { RankAccumulator } from './rank-metrics.js';
import { ThresholdAccumulator } from './thresholds.js';
import { wilson } from './wilson.js';

const hasLatency = (r: QuestionResult): r is QuestionResult & { latencyMs: number } => r.error === null && r.latencyMs !== null;

/**
 * report.metrics: everything beyond the summary, from the results alone (pure), in two passes over the source.
 * The first accumulates counts, rank sums, per-slice accumulators, confusions, latency percentiles and the top-1
 * scores (the only per-question memory: 8 to 16 bytes a question, for percentiles and the threshold curve);
 * the second needs what the first learned: the run's categories (category breakdown) and the latency range (histogram).
 */
export function computeMetrics(results: ResultSource): Metrics {
  let total = 0;
  const outcomes = zeroCounts();
  let dummy = 0;
  let floor = 0;
  let suggestion = 0;
  let empty = 0;
  const rank = new RankAccumulator();
  const correct = new FloatList();
  const notCorrect = new FloatList();
  const scoreExtent = new Extent();
  const latency = new LatencyRecorder();
  const latencyExtent = new Extent();
  const thresholds = new ThresholdAccumulator();
  const language = new SliceGroups((r) => [r.language]);
  const tag = new SliceGroups((r) => r.tags);
  const categories = new CategoryIndex();
  const confusions = new ConfusionCounter();

  try {
    for (const r of results) {
      total++;
      outcomes[r.outcome]++;
      const top = top1(r);
      if (top?.is_dummy_answer === true) dummy++;
      if (top?.is_dummy_floor_answer === true) floor++;
      if (top?.is_suggestion_answer === true) suggestion++;
      if (r.error === null && r.answers.length === 0) empty++;
      if (top !== undefined && r.error === null && r.outcome !== 'unlabeled' && r.outcome !== 'fallback_ok') {
        (r.outcome === 'correct' ? correct : notCorrect).push(top.answer_score);
        scoreExtent.add(top.answer_score);
      }
      if (hasLatency(r)) {
        latency.record(r.latencyMs);
        latencyExtent.add(r.latencyMs);
      }
      rank.add(r);
      thresholds.add(r);
      language.add(r);
      tag.add(r);
      categories.add(r);
      confusions.add(r);
    }
  } catch (error) {
    latency.dispose();
    throw error;
  }

  const category = new SliceGroups(categories.keysOf);
  const latencyDomain = latencyExtent.get();
  const latencyBins = latencyDomain && BinCounter.nice(latencyDomain);
  for (const r of results) {
    category.add(r);
    if (latencyBins && hasLatency(r)) latencyBins.add(r.latencyMs);
  }

  const scoreDomain = scoreExtent.get();
  return {
    intervals: {
      top1Accuracy: wilson(outcomes.correct + outcomes.fallback_ok, total - (outcomes.unlabeled + outcomes.error)),
      answerableAccuracy: wilson(outcomes.correct, outcomes.correct + outcomes.wrong + outcomes.abstained),
      rates: {
        dummy: wilson(dummy, total),
        floor: wilson(floor, total),
        suggestion: wilson(suggestion, total),
        empty: wilson(empty, total),
        error: wilson(outcomes.error, total),
      },
    },
    rank: rank.result(),
    scores: { correct: distribution(correct.values(), scoreDomain), notCorrect: distribution(notCorrect.values(), scoreDomain) },
    latency: { ...latency.result(), histogram: latencyBins ? latencyBins.result() : { edges: [], counts: [] } },
    thresholds: thresholds.result(),
    breakdowns: { language: language.result(), tag: tag.result(), category: category.result() },
    confusions: confusions.result(),
  };
}
