import type { QuestionResult, Summary } from '../model/report.js';
import { answerableFraction, hasResponse, ratio, top1Fraction, zeroCounts } from '../model/outcome.js';
import { LatencyRecorder } from './latency.js';
import { top1 } from './result.js';

const share = (count: number, of: number): number => (of === 0 ? 0 : count / of);

/**
 * The counts the summary and the metrics start from, a result at a time: outcomes, the top-1's flags,
 * empty and unordered lists, latency. Call `latencyResult()` once (it frees the histogram), or `dispose()`.
 */
export class Tally {
  readonly outcomes = zeroCounts();
  total = 0;
  dummy = 0;
  floor = 0;
  suggestion = 0;
  empty = 0;
  unorderedLists = 0;
  readonly latency = new LatencyRecorder();

  add(r: QuestionResult): void {
    this.total++;
    this.outcomes[r.outcome]++;
    const top = top1(r);
    if (top?.is_dummy_answer === true) this.dummy++;
    if (top?.is_dummy_floor_answer === true) this.floor++;
    if (top?.is_suggestion_answer === true) this.suggestion++;
    const responded = hasResponse(r.outcome);
    if (responded && r.answers.length === 0) this.empty++;
    if (r.unordered) this.unorderedLists++;
    if (responded && r.latencyMs !== null) this.latency.record(r.latencyMs);
  }

  /** The summary; ratios with an empty denominator are null. */
  summary(latencyMs: Summary['latencyMs']): Summary {
    const { outcomes, total } = this;
    return {
      total,
      outcomes,
      top1Accuracy: ratio(top1Fraction(outcomes)),
      answerableAccuracy: ratio(answerableFraction(outcomes)),
      rates: {
        dummy: share(this.dummy, total),
        floor: share(this.floor, total),
        suggestion: share(this.suggestion, total),
        empty: share(this.empty, total),
        error: share(outcomes.error, total),
      },
      latencyMs,
      unorderedLists: this.unorderedLists,
    };
  }

  latencyResult(): Summary['latencyMs'] {
    return this.latency.result();
  }

  dispose(): void {
    this.latency.dispose();
  }
}
