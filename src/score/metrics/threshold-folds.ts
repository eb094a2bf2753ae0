import type { CrossValidation } from '../../model/metrics.js';
import { objectiveOf, share, type How } from './threshold-objective.js';

// The folds of the recommended floor's cross-validated estimate (see ThresholdAccumulator).

/** k of the cross-validated estimate of the recommended floor (see ThresholdAnalysisSchema's crossValidated). */
export const CROSS_VALIDATION_FOLDS = 5;

/** Counts values >= t in an ascending list (binary search). */
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

/** Which list of its fold a replayed score belongs to (see foldMark). */
export const ROLE = { correct: 1, missed: 2, outOfScope: 3 } as const;

/** The mark of a score in fold `fold`'s list `role` (ScoreTable): 1 to 19, within THRESHOLD_MARKS. */
export const foldMark = (fold: number, role: (typeof ROLE)[keyof typeof ROLE]): number => (fold << 2) | role;
export const THRESHOLD_MARKS = 0x1f;

/** One fold's questions: how many of each kind (their answered scores are in the run's ScoreTable). */
export class Fold {
  answerable = 0;
  outOfScope = 0;
}

/** A fold's answered scores sorted, and how many of each are at or above the threshold the sweep is at. */
export class FoldCounts {
  private readonly next: [number, number, number];

  constructor(
    readonly fold: Fold,
    /** Answerable questions answered and rightly (their answer met the expectations), answered not rightly, out-of-scope questions answered: each sorted ascending. */
    readonly lists: [correct: Float64Array, missed: Float64Array, outOfScope: Float64Array],
  ) {
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
export class FoldChoice {
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
    this.floor = share(totals.correct - held.lists[0].length, this.answerable) - (how.maxAccuracyDrop ?? 0) - 1e-12;
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

/** Each fold measured at the floor its training set chose, pooled. */
export function crossValidated(how: How, folds: readonly FoldCounts[], choices: readonly FoldChoice[], answerable: number, outOfScope: number): CrossValidation {
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
