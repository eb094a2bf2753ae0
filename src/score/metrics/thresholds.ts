import type { ThresholdAnalysis, ThresholdPoint } from '../../model/metrics.js';
import type { QuestionResult } from '../../model/report.js';
import { isNonAnswer } from '../outcome.js';
import { top1 } from '../result.js';
import { FloatList } from './floats.js';

/** Counts values >= t in an ascending list (binary search), so a curve over n questions costs O(n log n). */
function atLeast(ascending: Float64Array, t: number): number {
  let lo = 0;
  let hi = ascending.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ascending[mid]! < t) lo = mid + 1;
    else hi = mid;
  }
  return ascending.length - lo;
}

const f1 = (a: number, b: number): number => (a + b === 0 ? 0 : (2 * a * b) / (a + b));
const share = (count: number, of: number): number => (of === 0 ? 0 : count / of);

/**
 * The threshold analysis. Replaying a floor threshold t over the stored lists: a question is *refused* at t
 * when its list is empty, its top-1 scores below t, or its top-1 is a dummy/floor answer that does not match
 * the expectations (as `judge` sees it). Otherwise it is *answered* by its stored top-1. Errors and unlabeled
 * rows are left out.
 *
 * Candidates are 0, every distinct top-1 score, and max + 1 (refuses everything). At each: answeredCorrectly =
 * answerable questions answered and correct / answerable; refusedCorrectly = out-of-scope questions refused /
 * out-of-scope; coverage = answerable questions answered / answerable; objective = F1 of answeredCorrectly and
 * refusedCorrectly. Recommended = highest objective, lowest threshold on ties.
 *
 * Memory: the scores of answered questions, 8 bytes each (twice for the correct ones).
 */
export class ThresholdAccumulator {
  private answerable = 0;
  private outOfScope = 0;
  private readonly answered = new FloatList();
  private readonly correct = new FloatList();
  private readonly outOfScopeAnswered = new FloatList();

  add(r: QuestionResult): void {
    if (r.error !== null) return;
    const expect = r.expected.expect;
    if (expect !== 'answer' && expect !== 'fallback') return;
    const top = top1(r);
    const correct = r.outcome === 'correct';
    const score = top === undefined || (isNonAnswer(top) && !correct) ? null : top.answer_score;
    if (expect === 'answer') {
      this.answerable++;
      if (score === null) return;
      this.answered.push(score);
      if (correct) this.correct.push(score);
    } else {
      this.outOfScope++;
      if (score !== null) this.outOfScopeAnswered.push(score);
    }
  }

  result(): ThresholdAnalysis {
    const { answerable, outOfScope } = this;
    const analysis = { objective: 'f1', answerable, outOfScope };
    if (answerable + outOfScope === 0) return { ...analysis, curve: [], recommended: null };

    const answeredScores = this.answered.sorted();
    const correctScores = this.correct.sorted();
    const outOfScopeScores = this.outOfScopeAnswered.sorted();
    const max = Math.max(0, answeredScores.at(-1) ?? 0, outOfScopeScores.at(-1) ?? 0);
    const candidates = new Float64Array(answeredScores.length + outOfScopeScores.length + 2);
    candidates.set(answeredScores);
    candidates.set(outOfScopeScores, answeredScores.length);
    candidates[candidates.length - 2] = 0;
    candidates[candidates.length - 1] = max + 1;
    candidates.sort();

    const curve: ThresholdPoint[] = [];
    for (let i = 0; i < candidates.length; i++) {
      const t = candidates[i]! === 0 ? 0 : candidates[i]!; // -0 is 0, as in a Set
      if (curve.length > 0 && curve.at(-1)!.threshold === t) continue;
      const answeredCorrectly = share(atLeast(correctScores, t), answerable);
      const refusedCorrectly = share(outOfScope - atLeast(outOfScopeScores, t), outOfScope);
      const coverage = share(atLeast(answeredScores, t), answerable);
      curve.push({ threshold: t, answeredCorrectly, refusedCorrectly, coverage, objective: f1(answeredCorrectly, refusedCorrectly) });
    }
    const recommended = answerable === 0 || outOfScope === 0 ? null : curve.reduce((best, p) => (p.objective > best.objective ? p : best));
    return { ...analysis, curve, recommended };
  }
}

export function thresholdAnalysis(results: Iterable<QuestionResult>): ThresholdAnalysis {
  const acc = new ThresholdAccumulator();
  for (const r of results) acc.add(r);
  return acc.result();
}
