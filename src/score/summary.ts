import * as hdr from 'hdr-histogram-js';
import type { QuestionResult, Summary } from '../report/schema.js';
import { OUTCOMES, type Outcome } from './outcome.js';
import { top1 } from './result.js';

const share = (count: number, of: number): number => (of === 0 ? 0 : count / of);
const ratio = (count: number, of: number): number | null => (of === 0 ? null : count / of);

/** Counts and rates over all results; ratios with an empty denominator are null. */
export function summarize(results: readonly QuestionResult[]): Summary {
  const outcomes = Object.fromEntries(OUTCOMES.map((o) => [o, 0])) as Record<Outcome, number>;
  let dummy = 0;
  let floor = 0;
  let suggestion = 0;
  let empty = 0;
  let unorderedLists = 0;
  const latencies: number[] = [];
  for (const r of results) {
    outcomes[r.outcome]++;
    const top = top1(r);
    if (top?.is_dummy_answer) dummy++;
    if (top?.is_dummy_floor_answer) floor++;
    if (top?.is_suggestion_answer) suggestion++;
    if (r.error === null && r.answers.length === 0) empty++;
    if (r.unordered) unorderedLists++;
    if (r.error === null && r.latencyMs !== null) latencies.push(r.latencyMs);
  }
  const total = results.length;
  const labeledOk = total - outcomes.unlabeled - outcomes.error;
  return {
    total,
    outcomes,
    top1Accuracy: ratio(outcomes.correct + outcomes.fallback_ok, labeledOk),
    answerableAccuracy: ratio(outcomes.correct, outcomes.correct + outcomes.wrong + outcomes.abstained),
    rates: {
      dummy: share(dummy, total),
      floor: share(floor, total),
      suggestion: share(suggestion, total),
      empty: share(empty, total),
      error: share(outcomes.error, total),
    },
    latencyMs: latencyPercentiles(latencies),
    unorderedLists,
  };
}

/** Latency percentiles from an HDR histogram (microsecond resolution, 3 significant digits). */
export function latencyPercentiles(latenciesMs: readonly number[]): Summary['latencyMs'] {
  if (latenciesMs.length === 0) return { p50: null, p90: null, p99: null, max: null };
  const histogram = hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: 3_600_000_000, numberOfSignificantValueDigits: 3 });
  try {
    for (const ms of latenciesMs) histogram.recordValue(Math.max(1, Math.round(ms * 1000)));
    // the histogram keeps 3 significant digits; say no more than that
    const at = (p: number) => Number((histogram.getValueAtPercentile(p) / 1000).toPrecision(3));
    return { p50: at(50), p90: at(90), p99: at(99), max: latenciesMs.reduce((a, b) => (b > a ? b : a), 0) };
  } finally {
    histogram.destroy();
  }
}
