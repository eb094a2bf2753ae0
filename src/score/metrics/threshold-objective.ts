import type { ThresholdObjective } from '../../model/metrics.js';

// The objective a recommended floor threshold is chosen by: its options, its words and its value.

export const share = (count: number, of: number): number => (of === 0 ? 0 : count / of);
const f1 = (a: number, b: number): number => (a + b === 0 ? 0 : (2 * a * b) / (a + b));
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

/** The objective in force (thresholdObjective). */
export type How = ReturnType<typeof thresholdObjective>;

export const objectiveOf = (how: How, answeredCorrectly: number, refusedCorrectly: number): number =>
  how.objective === 'f1' ? f1(answeredCorrectly, refusedCorrectly)
  : how.objective === 'live-accuracy' ? (1 - how.oosShare!) * answeredCorrectly + how.oosShare! * refusedCorrectly
  : answeredCorrectly;
