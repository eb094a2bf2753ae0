import type { QuestionResult, Summary } from '../model/report.js';
import { Tally } from './tally.js';

/** Counts and rates over all results, in one pass (see Tally); ratios with an empty denominator are null. */
export function summarize(results: Iterable<QuestionResult>): Summary {
  const tally = new Tally();
  try {
    for (const r of results) tally.add(r);
  } catch (error) {
    tally.dispose();
    throw error;
  }
  return tally.summary(tally.latencyResult());
}
