import type { ThresholdAnalysis } from '../model/metrics.js';
import { CROSS_VALIDATION_FOLDS } from '../score/metrics/thresholds.js';
import { pct } from './describe.js';

// The recommended floor in words, the same on the console, in summary.md and in report.html.

/** `answers 87.5% of in-scope questions correctly, refuses 100.0% of out-of-scope ones and answers 93.8% of in-scope questions at all`. */
export const floorFigures = (p: { answeredCorrectly: number; refusedCorrectly: number; coverage: number }, outOfScope: boolean): string =>
  `answers ${pct(p.answeredCorrectly)} of in-scope questions correctly${outOfScope ? `, refuses ${pct(p.refusedCorrectly)} of out-of-scope ones` : ''} and answers ${pct(p.coverage)} of in-scope questions at all`;

/** Why the recommended floor's own figures cannot be taken at face value. */
export const IN_SAMPLE_NOTE = 'measured on the questions the floor was chosen on, so optimistic';

/** Why a recommended floor has no cross-validated estimate: `5 folds need at least 5 in-scope and 5 out-of-scope questions (this run has 96 in-scope and 3 out-of-scope)`. */
export function tooFewText(t: Pick<ThresholdAnalysis, 'objective' | 'answerable' | 'outOfScope'>): string {
  const k = CROSS_VALIDATION_FOLDS;
  const needs = t.objective === 'keep-accuracy' ? `${k} in-scope questions` : `${k} in-scope and ${k} out-of-scope questions`;
  return `${k} folds need at least ${needs} (this run has ${t.answerable} in-scope and ${t.outOfScope} out-of-scope)`;
}

/**
 * The recommended floor's cross-validated estimate in a sentence (no final stop), or why there is none; '' when
 * nothing is recommended, or for a report that predates the estimate.
 */
export function crossValidationText(t: ThresholdAnalysis): string {
  const cv = t.crossValidated;
  if (cv === undefined || t.recommended === null) return '';
  if (cv === null) return `Not enough questions to cross-validate it: ${tooFewText(t)}`;
  const k = cv.folds;
  const low = Math.min(...cv.thresholds);
  const high = Math.max(...cv.thresholds);
  const floors = low === high ? `the floor chosen was ${low} in every fold` : `the floors chosen ranged from ${low} to ${high}`;
  return `Cross-validated (${k} folds, each replayed at the floor chosen on the other ${k - 1}): the service ${floorFigures(cv, t.outOfScope > 0)}; ${floors}`;
}
