import type { QuestionResult, Summary } from '../report/schema.js';
import { LatencyRecorder } from './latency.js';
import { zeroCounts } from './outcome.js';
import { top1 } from './result.js';

const share = (count: number, of: number): number => (of === 0 ? 0 : count / of);
const ratio = (count: number, of: number): number | null => (of === 0 ? null : count / of);

/** Counts and rates over all results, in one pass; ratios with an empty denominator are null. */
export function summarize(results: Iterable<QuestionResult>): Summary {
  const outcomes = zeroCounts();
  let total = 0;
  let dummy = 0;
  let floor = 0;
  let suggestion = 0;
  let empty = 0;
  let unorderedLists = 0;
  const latency = new LatencyRecorder();
  try {
    for (const r of results) {
      total++;
      outcomes[r.outcome]++;
      const top = top1(r);
      if (top?.is_dummy_answer) dummy++;
      if (top?.is_dummy_floor_answer) floor++;
      if (top?.is_suggestion_answer) suggestion++;
      if (r.error === null && r.answers.length === 0) empty++;
      if (r.unordered) unorderedLists++;
      if (r.error === null && r.latencyMs !== null) latency.record(r.latencyMs);
    }
  } catch (error) {
    latency.dispose();
    throw error;
  }
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
    latencyMs: latency.result(),
    unorderedLists,
  };
}

/** Latency percentiles of a list of values (see LatencyRecorder). */
export function latencyPercentiles(latenciesMs: Iterable<number>): Summary['latencyMs'] {
  const recorder = new LatencyRecorder();
  for (const ms of latenciesMs) recorder.record(ms);
  return recorder.result();
}
