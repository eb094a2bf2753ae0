import type { QuestionResult } from '../../model/report.js';
import type { RankMetrics } from '../../model/metrics.js';
import { hasExpectations } from '../../model/expectations.js';
import { hasResponse } from '../../model/outcome.js';

/** The results rank metrics count: rows with expectations that got a response. */
export const isRanked = (r: QuestionResult): boolean => hasResponse(r.outcome) && hasExpectations(r.expected);

/** 1/rank of the first matching answer; 0 when none matched (trec_eval's recip_rank). */
export const reciprocalRank = (r: Pick<QuestionResult, 'rank'>): number => (typeof r.rank === 'number' && r.rank > 0 ? 1 / r.rank : 0);

/**
 * A sum that does not depend on the order its values come in: the values are counted by value and summed in
 * ascending order. So the MRR of the same questions is the same number in report.json and in compare.json, whatever
 * order each met them in (reciprocal ranks take a few dozen distinct values: 0 and 1/rank).
 */
export class CountedSum {
  private readonly counts = new Map<number, number>();
  n = 0;

  add(value: number): void {
    this.counts.set(value, (this.counts.get(value) ?? 0) + 1);
    this.n++;
  }

  /** Σ value · count, ascending; `squares`: Σ value² · count. */
  sum(squares = false): number {
    let total = 0;
    for (const v of [...this.counts.keys()].sort((a, b) => a - b)) total += (squares ? v * v : v) * this.counts.get(v)!;
    return total;
  }
}

const Z95 = 1.959963984540054;

/** The mean of values in 0..1 with its 95% interval: mean ± z·s/√n (s the sample deviation), clipped to 0..1. */
export function meanInterval(sum: number, squares: number, n: number): { value: number | null; low: number | null; high: number | null } {
  if (n === 0) return { value: null, low: null, high: null };
  const mean = sum / n;
  const variance = n < 2 ? 0 : Math.max(0, (squares - n * mean * mean) / (n - 1));
  const spread = Z95 * Math.sqrt(variance / n);
  return { value: mean, low: Math.max(0, mean - spread), high: Math.min(1, mean + spread) };
}

/**
 * hit@k = share of ranked questions whose first matching answer is at rank <= k; MRR = mean of 1/rank
 * (0 when no answer matches: trec_eval's recip_rank); meanMargin over those with two answers or more.
 * The reciprocal ranks are summed by value (CountedSum); the margins in result order, so their mean is the same as over a list.
 */
export class RankAccumulator {
  private n = 0;
  private hits = [0, 0, 0];
  private readonly reciprocal = new CountedSum();
  private marginSum = 0;
  private margins = 0;

  add(r: QuestionResult): void {
    if (!isRanked(r)) return;
    this.n++;
    if (r.rank != null) {
      if (r.rank <= 1) this.hits[0]!++;
      if (r.rank <= 3) this.hits[1]!++;
      if (r.rank <= 5) this.hits[2]!++;
    }
    this.reciprocal.add(reciprocalRank(r));
    if (r.margin != null) {
      this.marginSum += r.margin;
      this.margins++;
    }
  }

  result(): RankMetrics {
    const n = this.n;
    const hit = (k: 0 | 1 | 2) => (n === 0 ? null : this.hits[k]! / n);
    const sum = this.reciprocal.sum();
    return {
      questions: n,
      hit1: hit(0),
      hit3: hit(1),
      hit5: hit(2),
      mrr: n === 0 ? null : sum / n,
      mrrInterval: meanInterval(sum, this.reciprocal.sum(true), n),
      meanMargin: this.margins === 0 ? null : this.marginSum / this.margins,
    };
  }
}

export function rankMetrics(results: Iterable<QuestionResult>): RankMetrics {
  const acc = new RankAccumulator();
  for (const r of results) acc.add(r);
  return acc.result();
}
