import type { ThresholdAnalysis, ThresholdObjective, ThresholdPoint } from '../../model/metrics.js';
import type { QuestionResult } from '../../model/report.js';
import { hasResponse } from '../../model/outcome.js';
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
const points = (v: number): string => String(Math.round(v * 1000) / 10);

/** How the recommended floor threshold is chosen (see ThresholdAnalysisSchema). */
export interface ThresholdOptions {
  /** @default 'live-accuracy' when oosShare is given, else 'f1' */
  objective?: ThresholdObjective;
  /** The out-of-scope share expected in live traffic (0..1), for live-accuracy. */
  oosShare?: number;
  /** How much in-scope accuracy may drop, as a share (0.02 = 2 points), for keep-accuracy. @default 0.01 */
  maxAccuracyDrop?: number;
}

/** The objective in force, with its parameters and its words. */
export function thresholdObjective(o: ThresholdOptions = {}): { objective: ThresholdObjective; objectiveText: string; oosShare: number | null; maxAccuracyDrop: number | null } {
  const objective = o.objective ?? (o.oosShare !== undefined ? 'live-accuracy' : 'f1');
  if (objective === 'live-accuracy') {
    const p = o.oosShare ?? 0.5;
    return {
      objective,
      objectiveText: `accuracy on live traffic with ${points(p)}% of questions out of scope: ${points(1 - p)}% × in-scope accuracy + ${points(p)}% × out-of-scope recall`,
      oosShare: p,
      maxAccuracyDrop: null,
    };
  }
  if (objective === 'keep-accuracy') {
    const drop = o.maxAccuracyDrop ?? 0.01;
    return { objective, objectiveText: `the highest floor keeping in-scope accuracy within ${points(drop)} points of its best`, oosShare: null, maxAccuracyDrop: drop };
  }
  return {
    objective,
    objectiveText: "F1 of in-scope accuracy and out-of-scope recall (whatever the mix of the dataset; give --oos-share to weigh live traffic's)",
    oosShare: null,
    maxAccuracyDrop: null,
  };
}

/**
 * The threshold analysis. Replaying a floor threshold t over the stored lists: a question is *refused* at t
 * when its list is empty, its top-1 scores below t, or its top-1 is a dummy/floor answer that does not match
 * the expectations (as `judge` sees it). Otherwise it is *answered* by its stored top-1. Errors and unlabeled
 * rows are left out.
 *
 * Candidates start at the lowest score the service answered with (`replayableFrom`: answers below its own floor
 * were never returned, so a lower floor cannot be judged), then every distinct top-1 score, then max + 1 (refuses
 * everything). At each: answeredCorrectly = answerable questions answered and correct / answerable;
 * refusedCorrectly = out-of-scope questions refused / out-of-scope; coverage = answerable questions answered /
 * answerable; objective per `thresholdObjective`. Recommended = the best objective, the higher threshold on ties
 * (a floor the data cannot tell apart from a lower one is never advised lower than the service's own).
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
    if (!hasResponse(r.outcome)) return;
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

  result(options: ThresholdOptions = {}): ThresholdAnalysis {
    const { answerable, outOfScope } = this;
    const how = thresholdObjective(options);
    const answeredScores = this.answered.sorted();
    const correctScores = this.correct.sorted();
    const outOfScopeScores = this.outOfScopeAnswered.sorted();
    const lowest = Math.min(answeredScores[0] ?? Infinity, outOfScopeScores[0] ?? Infinity);
    const replayableFrom = lowest === Infinity ? null : lowest;
    const analysis = { ...how, answerable, outOfScope, replayableFrom };
    if (answerable + outOfScope === 0) return { ...analysis, curve: [], recommended: null };

    const max = Math.max(0, answeredScores.at(-1) ?? 0, outOfScopeScores.at(-1) ?? 0);
    const candidates = new Float64Array(answeredScores.length + outOfScopeScores.length + 1);
    candidates.set(answeredScores);
    candidates.set(outOfScopeScores, answeredScores.length);
    candidates[candidates.length - 1] = replayableFrom === null ? 0 : max + 1;
    candidates.sort();

    const curve: ThresholdPoint[] = [];
    for (let i = 0; i < candidates.length; i++) {
      const t = candidates[i]! === 0 ? 0 : candidates[i]!; // -0 is 0, as in a Set
      if (curve.length > 0 && curve.at(-1)!.threshold === t) continue;
      const answeredCorrectly = share(atLeast(correctScores, t), answerable);
      const refusedCorrectly = share(outOfScope - atLeast(outOfScopeScores, t), outOfScope);
      const coverage = share(atLeast(answeredScores, t), answerable);
      const objective =
        how.objective === 'f1' ? f1(answeredCorrectly, refusedCorrectly)
        : how.objective === 'live-accuracy' ? (1 - how.oosShare!) * answeredCorrectly + how.oosShare! * refusedCorrectly
        : answeredCorrectly;
      curve.push({ threshold: t, answeredCorrectly, refusedCorrectly, coverage, objective });
    }
    return { ...analysis, curve, recommended: recommend(curve, how, answerable, outOfScope) };
  }
}

function recommend(curve: ThresholdPoint[], how: ReturnType<typeof thresholdObjective>, answerable: number, outOfScope: number): ThresholdPoint | null {
  if (answerable === 0 || curve.length === 0) return null;
  if (how.objective === 'keep-accuracy') {
    const floor = curve[0]!.answeredCorrectly - how.maxAccuracyDrop! - 1e-12;
    return curve.filter((p) => p.answeredCorrectly >= floor).at(-1) ?? null;
  }
  if (outOfScope === 0) return null;
  return curve.reduce((best, p) => (p.objective >= best.objective ? p : best));
}

export function thresholdAnalysis(results: Iterable<QuestionResult>, options?: ThresholdOptions): ThresholdAnalysis {
  const acc = new ThresholdAccumulator();
  for (const r of results) acc.add(r);
  return acc.result(options);
}
