import type { ThresholdAnalysis, ThresholdPoint } from '../../report/metrics-schema.js';
import type { QuestionResult } from '../../report/schema.js';
import { isNonAnswer } from '../outcome.js';
import { top1 } from '../result.js';

/** What a replay needs of one result: its outcome and top-1 answer. */
interface Replayed {
  correct: boolean;
  /** Top-1 score, or null when the engine already refused (empty list, or a non-matching dummy/floor top-1). */
  score: number | null;
}

/**
 * Replaying a floor threshold t over the stored lists: a question is *refused* at t when its list is empty,
 * its top-1 scores below t, or its top-1 is a dummy/floor answer that does not match the expectations
 * (as `judge` sees it). Otherwise it is *answered* by its stored top-1. Errors and unlabeled rows are left out.
 */
function replayed(r: QuestionResult): Replayed {
  const top = top1(r);
  const correct = r.outcome === 'correct';
  return { correct, score: top === undefined || (isNonAnswer(top) && !correct) ? null : top.answer_score };
}

/** Counts values >= t in an ascending list (binary search), so a curve over n questions costs O(n log n). */
function atLeast(ascending: readonly number[], t: number): number {
  let lo = 0;
  let hi = ascending.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ascending[mid]! < t) lo = mid + 1;
    else hi = mid;
  }
  return ascending.length - lo;
}

const scoresOf = (qs: readonly Replayed[]): number[] => qs.flatMap((q) => (q.score === null ? [] : [q.score])).sort((a, b) => a - b);
const f1 = (a: number, b: number): number => (a + b === 0 ? 0 : (2 * a * b) / (a + b));
const share = (count: number, of: number): number => (of === 0 ? 0 : count / of);

/**
 * The threshold analysis: candidates are 0, every distinct top-1 score, and max + 1 (refuses everything).
 * At each: answeredCorrectly = answerable questions answered and correct / answerable; refusedCorrectly =
 * out-of-scope questions refused / out-of-scope; coverage = answerable questions answered / answerable;
 * objective = F1 of answeredCorrectly and refusedCorrectly. Recommended = highest objective, lowest threshold on ties.
 */
export function thresholdAnalysis(results: readonly QuestionResult[]): ThresholdAnalysis {
  const ok = results.filter((r) => r.error === null);
  const answerable = ok.filter((r) => r.expected.expect === 'answer').map(replayed);
  const outOfScope = ok.filter((r) => r.expected.expect === 'fallback').map(replayed);
  const scores = [...answerable, ...outOfScope].flatMap((q) => (q.score === null ? [] : [q.score]));
  const analysis = { objective: 'f1', answerable: answerable.length, outOfScope: outOfScope.length };
  if (answerable.length + outOfScope.length === 0) return { ...analysis, curve: [], recommended: null };

  const max = scores.reduce((a, b) => Math.max(a, b), 0);
  const candidates = [...new Set([0, ...scores, max + 1])].sort((a, b) => a - b);
  const answeredScores = scoresOf(answerable);
  const correctScores = scoresOf(answerable.filter((q) => q.correct));
  const outOfScopeScores = scoresOf(outOfScope);
  const curve = candidates.map((t): ThresholdPoint => {
    const answeredCorrectly = share(atLeast(correctScores, t), answerable.length);
    const refusedCorrectly = share(outOfScope.length - atLeast(outOfScopeScores, t), outOfScope.length);
    const coverage = share(atLeast(answeredScores, t), answerable.length);
    return { threshold: t, answeredCorrectly, refusedCorrectly, coverage, objective: f1(answeredCorrectly, refusedCorrectly) };
  });
  const recommended =
    answerable.length === 0 || outOfScope.length === 0 ? null : curve.reduce((best, p) => (p.objective > best.objective ? p : best));
  return { ...analysis, curve, recommended };
}
