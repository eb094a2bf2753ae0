import type { ThresholdAnalysis, ThresholdPoint } from '../../model/metrics.js';
import type { QuestionResult } from '../../model/report.js';
import { hasResponse } from '../../model/outcome.js';
import { answerOutcome, isNonAnswer } from '../outcome.js';
import { hasScores, top1 } from '../result.js';
import { ScoreTable } from './floats.js';
import { CROSS_VALIDATION_FOLDS, crossValidated, Fold, FoldChoice, FoldCounts, foldMark, ROLE, THRESHOLD_MARKS } from './threshold-folds.js';
import { objectiveOf, share, thresholdObjective, type How, type ThresholdOptions } from './threshold-objective.js';

export { CROSS_VALIDATION_FOLDS } from './threshold-folds.js';
export { thresholdObjective, type ThresholdOptions } from './threshold-objective.js';

/**
 * The threshold analysis. Replaying a floor threshold t over the stored lists: a question is *refused* at t
 * when its list is empty, its top-1 scores below t, or its top-1 is a dummy/floor answer whose answer does not meet
 * the expectations (answerOutcome: a `check_failed` turn's answer met them). Otherwise it is *answered* by its stored
 * top-1. Errors and unlabeled rows are left out.
 *
 * Candidates start at the lowest score the service answered with (`replayableFrom`: answers below its own floor
 * were never returned, so a lower floor cannot be judged), then every distinct top-1 score, then max + 1 (refuses
 * everything). At each: answeredCorrectly = answerable questions answered and correct / answerable;
 * refusedCorrectly = out-of-scope questions refused / out-of-scope; coverage = answerable questions answered /
 * answerable; objective per `thresholdObjective`. Recommended = the best objective, the higher threshold on ties
 * (a floor the data cannot tell apart from a lower one is never advised lower than the service's own). Every
 * candidate is replayed; the curve keeps at most about CURVE_POINTS of them (see there).
 *
 * Cross-validated: the questions are dealt to CROSS_VALIDATION_FOLDS folds as they come, answerable and out-of-scope
 * apart (the i-th of each kind to fold i mod k); each fold's floor is recommended from the others and measured on it.
 * One descending sweep over the candidates gives the curve and every fold's choice: O(n log n) for the sort, then
 * O(k) a candidate.
 *
 * Memory: the scores of answered questions, 9 bytes each in the table (shared with the score distributions), 8 more
 * in their sorted lists and 8 more in the candidates while the curve is drawn; and the curve's points.
 */
export class ThresholdAccumulator {
  private answerable = 0;
  private outOfScope = 0;
  private readonly folds = Array.from({ length: CROSS_VALIDATION_FOLDS }, () => new Fold());

  /** `scores`: where the replayed scores are kept, shared with the score distributions when they are computed together. */
  constructor(private readonly scores = new ScoreTable()) {}

  /** Counts `r` in its fold; returns the mark its top-1 score is kept with in the shared table (0: none replayed). */
  mark(r: QuestionResult): number {
    if (!hasResponse(r.outcome) || !hasScores(r)) return 0; // a text reply has no scores to replay a floor on
    const expect = r.expected.expect;
    if (expect !== 'answer' && expect !== 'fallback') return 0;
    const top = top1(r);
    const correct = answerOutcome(r) === 'correct';
    const replayed = top !== undefined && !(isNonAnswer(top) && !correct);
    if (expect === 'answer') {
      const k = this.answerable++ % CROSS_VALIDATION_FOLDS;
      this.folds[k]!.answerable++;
      return replayed ? foldMark(k, correct ? ROLE.correct : ROLE.missed) : 0;
    }
    const k = this.outOfScope++ % CROSS_VALIDATION_FOLDS;
    this.folds[k]!.outOfScope++;
    return replayed ? foldMark(k, ROLE.outOfScope) : 0;
  }

  /** Counts `r` and keeps its replayed score (the accumulator used alone). */
  add(r: QuestionResult): void {
    const mark = this.mark(r);
    if (mark !== 0) this.scores.push(top1(r)!.answer_score, mark);
  }

  result(options: ThresholdOptions = {}): ThresholdAnalysis {
    const { answerable, outOfScope } = this;
    const how = thresholdObjective(options);
    const lists = this.scores.split(THRESHOLD_MARKS);
    const folds = this.folds.map((f, k) => new FoldCounts(f, [lists[foldMark(k, ROLE.correct)]!, lists[foldMark(k, ROLE.missed)]!, lists[foldMark(k, ROLE.outOfScope)]!]));
    const highestOf = (of: readonly FoldCounts[]) => Math.max(...of.flatMap((f) => f.lists.map((l) => l.at(-1) ?? -Infinity)));
    const lowest = Math.min(...folds.flatMap((f) => f.lists.map((l) => l[0] ?? Infinity)));
    const replayableFrom = lowest === Infinity ? null : lowest;
    const analysis = { ...how, answerable, outOfScope, replayableFrom };
    if (answerable + outOfScope === 0) return { ...analysis, curve: [], recommended: null, crossValidated: null };

    const candidates = new Float64Array(folds.reduce((n, f) => n + f.lists.reduce((m, l) => m + l.length, 0), 0));
    let filled = 0;
    for (const f of folds) for (const l of f.lists) candidates.set(l, (filled += l.length) - l.length);
    candidates.sort();
    // the highest + 1 refuses everything; 0 when nothing was answered
    const topOf = (highest: number): number => (highest === -Infinity ? 0 : Math.max(0, highest) + 1);

    const validated = answerable >= CROSS_VALIDATION_FOLDS && (how.objective === 'keep-accuracy' || outOfScope >= CROSS_VALIDATION_FOLDS);
    const totals = { answerable, outOfScope, correct: folds.reduce((n, f) => n + f.lists[0].length, 0) };
    const choices = validated ? folds.map((held) => new FoldChoice(how, totals, held, topOf(highestOf(folds.filter((f) => f !== held))))) : [];

    // One descending sweep: every distinct candidate is a point, and the recommended one is found as they come; the
    // curve keeps every stride-th of them (all of them up to CURVE_POINTS), the lowest and the recommended one.
    const points = 1 + distinctCount(candidates);
    const stride = Math.ceil(points / CURVE_POINTS);
    const pick = new Recommendation(how, answerable, outOfScope, share(totals.correct, answerable));
    const descending: ThresholdPoint[] = [];
    let last = NaN;
    let index = 0;
    const step = (t: number, first: boolean): void => {
      let correct = 0;
      let answered = 0;
      let outOfScopeAnswered = 0;
      for (const f of folds) {
        f.lower(t);
        correct += f.correct;
        answered += f.answered;
        outOfScopeAnswered += f.outOfScopeAnswered;
      }
      const answeredCorrectly = share(correct, answerable);
      const refusedCorrectly = share(outOfScope - outOfScopeAnswered, outOfScope);
      const point = { threshold: t, answeredCorrectly, refusedCorrectly, coverage: share(answered, answerable), objective: objectiveOf(how, answeredCorrectly, refusedCorrectly) };
      pick.consider(point);
      if (index % stride === 0 || index === points - 1) descending.push(point);
      index++;
      last = t;
      choices.forEach((c, k) => c.consider(t, first, correct - folds[k]!.correct, outOfScopeAnswered - folds[k]!.outOfScopeAnswered));
    };
    step(topOf(highestOf(folds)), true);
    for (let i = candidates.length - 1; i >= 0; i--) {
      const t = candidates[i]! === 0 ? 0 : candidates[i]!; // -0 is 0, as in a Set
      if (t !== last) step(t, false);
    }
    const recommended = pick.best;
    if (recommended && !descending.includes(recommended)) {
      const below = descending.findIndex((p) => p.threshold < recommended.threshold);
      descending.splice(below === -1 ? descending.length : below, 0, recommended);
    }
    const curve = descending.reverse();
    return { ...analysis, curve, recommended, crossValidated: validated ? crossValidated(how, folds, choices, answerable, outOfScope) : null };
  }
}

/**
 * The most points report.json's curve keeps. A run with more distinct top-1 scores (a service scoring with many
 * decimals, 10,000 questions and more) keeps every k-th of them, the lowest and the recommended one: the curve of a
 * million questions would otherwise be a million points (150 MB of report.json), which no chart can show.
 */
export const CURVE_POINTS = 10_000;

/** How many distinct values an ascending list holds (-0 and 0 are one). */
function distinctCount(ascending: Float64Array): number {
  let n = 0;
  for (let i = 0; i < ascending.length; i++) if (i === 0 || ascending[i]! !== ascending[i - 1]!) n++;
  return n;
}

/**
 * The recommended point, chosen as the descending sweep meets them: the best objective, the higher threshold on ties
 * (the first met); for keep-accuracy, the highest threshold whose answeredCorrectly is within the drop of its best,
 * the one at the lowest threshold (answering more never answers fewer correctly), known before the sweep.
 */
class Recommendation {
  best: ThresholdPoint | null = null;
  private readonly accuracyFloor: number;

  constructor(private readonly how: How, private readonly answerable: number, private readonly outOfScope: number, bestAccuracy: number) {
    this.accuracyFloor = bestAccuracy - (how.maxAccuracyDrop ?? 0) - 1e-12;
  }

  consider(p: ThresholdPoint): void {
    if (this.answerable === 0) return;
    if (this.how.objective === 'keep-accuracy') {
      if (this.best === null && p.answeredCorrectly >= this.accuracyFloor) this.best = p;
    } else if (this.outOfScope > 0 && (this.best === null || p.objective > this.best.objective)) this.best = p;
  }
}

export function thresholdAnalysis(results: Iterable<QuestionResult>, options?: ThresholdOptions): ThresholdAnalysis {
  const acc = new ThresholdAccumulator();
  for (const r of results) acc.add(r);
  return acc.result(options);
}
