import type { QuestionResult } from '../../report/schema.js';
import type { RankMetrics } from '../../report/metrics-schema.js';
import { hasExpectations } from '../match.js';

const mean = (values: readonly number[]): number | null => (values.length === 0 ? null : values.reduce((a, b) => a + b, 0) / values.length);

/** The results rank metrics count: rows with expectations that got a response. */
export const isRanked = (r: QuestionResult): boolean => r.error === null && hasExpectations(r.expected);

/**
 * hit@k = share of ranked questions whose first matching answer is at rank <= k; MRR = mean of 1/rank
 * (0 when no answer matches: trec_eval's recip_rank); meanMargin over those with two answers or more.
 */
export function rankMetrics(results: readonly QuestionResult[]): RankMetrics {
  const ranked = results.filter(isRanked);
  const n = ranked.length;
  const hit = (k: number) => (n === 0 ? null : ranked.filter((r) => r.rank != null && r.rank <= k).length / n);
  return {
    questions: n,
    hit1: hit(1),
    hit3: hit(3),
    hit5: hit(5),
    mrr: mean(ranked.map((r) => (r.rank == null ? 0 : 1 / r.rank))),
    meanMargin: mean(ranked.flatMap((r) => (r.margin == null ? [] : [r.margin]))),
  };
}
