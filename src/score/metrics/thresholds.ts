import type { CrossValidation, ThresholdAnalysis, ThresholdObjective, ThresholdPoint } from '../../model/metrics.js';
import type { QuestionResult } from '../../model/report.js';
import { hasResponse } from '../../model/outcome.js';
import { answerOutcome, isNonAnswer } from '../outcome.js';
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

/** k of the cross-validated estimate of the recommended floor (see ThresholdAnalysisSchema's crossValidated). */
export const CROSS_VALIDATION_FOLDS = 5;

type How = ReturnType<typeof thresholdObjective>;

const objectiveOf = (how: How, answeredCorrectly: number, refusedCorrectly: number): number =>
  how.objective === 'f1' ? f1(answeredCorrectly, refusedCorrectly)
  : how.objective === 'live-accuracy' ? (1 - how.oosShare!) * answeredCorrectly + how.oosShare! * refusedCorrectly
  : answeredCorrectly;

/** One fold's questions: how many of each kind, and the top-1 scores of those answered. */
class Fold {
  answerable = 0;
  outOfScope = 0;
  /** Answerable questions answered, and rightly (their answer met the expectations). */
  readonly correct = new FloatList();
  /** Answerable questions answered, not rightly. */
  readonly missed = new FloatList();
  readonly outOfScopeAnswered = new FloatList();
}

/** A fold's answered scores sorted, and how many of each are at or above the threshold the sweep is at. */
class FoldCounts {
  readonly lists: [correct: Float64Array, missed: Float64Array, outOfScope: Float64Array];
  private readonly next: [number, number, number];

  constructor(readonly fold: Fold) {
    this.lists = [fold.correct.sorted(), fold.missed.sorted(), fold.outOfScopeAnswered.sorted()];
    this.next = [this.lists[0].length, this.lists[1].length, this.lists[2].length];
  }

  /** Moves down to threshold t (never up). */
  lower(t: number): void {
    for (let k = 0; k < 3; k++) {
      const list = this.lists[k]!;
      let i = this.next[k]!;
      while (i > 0 && list[i - 1]! >= t) i--;
      this.next[k] = i;
    }
  }

  get correct(): number {
    return this.lists[0].length - this.next[0];
  }

  get answered(): number {
    return this.correct + this.lists[1].length - this.next[1];
  }

  get outOfScopeAnswered(): number {
    return this.lists[2].length - this.next[2];
  }

  /** Counts at or above any threshold (binary search), for the held-out measure. */
  at(t: number): { correct: number; answered: number; outOfScopeAnswered: number } {
    const correct = atLeast(this.lists[0], t);
    return { correct, answered: correct + atLeast(this.lists[1], t), outOfScopeAnswered: atLeast(this.lists[2], t) };
  }
}

/**
 * The floor one fold's training set (every other fold) recommends, found in the same descending sweep as the whole
 * run's curve: the candidates above the training set's highest score all refuse everything (the first, `top`), and
 * a candidate that is no training score replays on it as the next higher one does, so with the higher threshold
 * winning ties the sweep picks what the training set's own candidates would.
 */
class FoldChoice {
  private best = -Infinity;
  threshold: number | null = null;
  private readonly answerable: number;
  private readonly outOfScope: number;
  private readonly floor: number;

  constructor(
    private readonly how: How,
    totals: { answerable: number; outOfScope: number; correct: number },
    held: FoldCounts,
    private readonly top: number,
  ) {
    this.answerable = totals.answerable - held.fold.answerable;
    this.outOfScope = totals.outOfScope - held.fold.outOfScope;
    // keep-accuracy: within the drop of the training set's best, its accuracy at its lowest candidate (all answered)
    this.floor = share(totals.correct - held.fold.correct.length, this.answerable) - (how.maxAccuracyDrop ?? 0) - 1e-12;
  }

  /** The training set's counts at candidate t (the sweep's, less the held-out fold's); first = the refuse-all point. */
  consider(t: number, first: boolean, correct: number, outOfScopeAnswered: number): void {
    const answeredCorrectly = share(correct, this.answerable);
    if (this.how.objective === 'keep-accuracy') {
      if (this.threshold === null && answeredCorrectly >= this.floor) this.threshold = first ? this.top : t;
      return;
    }
    const objective = objectiveOf(this.how, answeredCorrectly, share(this.outOfScope - outOfScopeAnswered, this.outOfScope));
    if (objective > this.best) {
      this.best = objective;
      this.threshold = first ? this.top : t;
    }
  }
}

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
 * (a floor the data cannot tell apart from a lower one is never advised lower than the service's own).
 *
 * Cross-validated: the questions are dealt to CROSS_VALIDATION_FOLDS folds as they come, answerable and out-of-scope
 * apart (the i-th of each kind to fold i mod k); each fold's floor is recommended from the others and measured on it.
 * One descending sweep over the candidates gives the curve and every fold's choice: O(n log n) for the sort, then
 * O(k) a candidate.
 *
 * Memory: the scores of answered questions, 8 bytes each.
 */
export class ThresholdAccumulator {
  private answerable = 0;
  private outOfScope = 0;
  private readonly folds = Array.from({ length: CROSS_VALIDATION_FOLDS }, () => new Fold());

  add(r: QuestionResult): void {
    if (!hasResponse(r.outcome)) return;
    const expect = r.expected.expect;
    if (expect !== 'answer' && expect !== 'fallback') return;
    const top = top1(r);
    const correct = answerOutcome(r) === 'correct';
    const score = top === undefined || (isNonAnswer(top) && !correct) ? null : top.answer_score;
    if (expect === 'answer') {
      const fold = this.folds[this.answerable++ % CROSS_VALIDATION_FOLDS]!;
      fold.answerable++;
      if (score !== null) (correct ? fold.correct : fold.missed).push(score);
    } else {
      const fold = this.folds[this.outOfScope++ % CROSS_VALIDATION_FOLDS]!;
      fold.outOfScope++;
      if (score !== null) fold.outOfScopeAnswered.push(score);
    }
  }

  result(options: ThresholdOptions = {}): ThresholdAnalysis {
    const { answerable, outOfScope } = this;
    const how = thresholdObjective(options);
    const folds = this.folds.map((f) => new FoldCounts(f));
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
    const totals = { answerable, outOfScope, correct: folds.reduce((n, f) => n + f.fold.correct.length, 0) };
    const choices = validated ? folds.map((held) => new FoldChoice(how, totals, held, topOf(highestOf(folds.filter((f) => f !== held))))) : [];

    const descending: ThresholdPoint[] = [];
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
      descending.push({ threshold: t, answeredCorrectly, refusedCorrectly, coverage: share(answered, answerable), objective: objectiveOf(how, answeredCorrectly, refusedCorrectly) });
      choices.forEach((c, k) => c.consider(t, first, correct - folds[k]!.correct, outOfScopeAnswered - folds[k]!.outOfScopeAnswered));
    };
    step(topOf(highestOf(folds)), true);
    for (let i = candidates.length - 1; i >= 0; i--) {
      const t = candidates[i]! === 0 ? 0 : candidates[i]!; // -0 is 0, as in a Set
      if (t !== descending.at(-1)!.threshold) step(t, false);
    }
    const curve = descending.reverse();
    return { ...analysis, curve, recommended: recommend(curve, how, answerable, outOfScope), crossValidated: validated ? crossValidated(how, folds, choices, answerable, outOfScope) : null };
  }
}

/** Each fold measured at the floor its training set chose, pooled. */
function crossValidated(how: How, folds: readonly FoldCounts[], choices: readonly FoldChoice[], answerable: number, outOfScope: number): CrossValidation {
  let correct = 0;
  let answered = 0;
  let outOfScopeAnswered = 0;
  const thresholds = choices.map((c, k) => {
    const t = c.threshold!;
    const held = folds[k]!.at(t);
    correct += held.correct;
    answered += held.answered;
    outOfScopeAnswered += held.outOfScopeAnswered;
    return t;
  });
  const answeredCorrectly = share(correct, answerable);
  const refusedCorrectly = share(outOfScope - outOfScopeAnswered, outOfScope);
  return { folds: folds.length, thresholds, answeredCorrectly, refusedCorrectly, coverage: share(answered, answerable), objective: objectiveOf(how, answeredCorrectly, refusedCorrectly) };
}

function recommend(curve: ThresholdPoint[], how: How, answerable: number, outOfScope: number): ThresholdPoint | null {
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
