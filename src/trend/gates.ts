import type { GateResult } from '../gate/gates.js';
import type { FailingQuestion, FlakyQuestion } from './schema.js';
import { plural } from '../util/text.js';

/** CI gates on a history. */
export interface TrendGates {
  /** Fail when more questions than this fail in the latest run after passing the last time they were judged. */
  maxNewFailures?: number;
  /** Fail when more questions than this are flaky. */
  maxFlaky?: number;
}

const ids = (list: readonly { id: string }[]): string => {
  const shown = list.slice(0, 10).map((q) => q.id).join(', ');
  return list.length > 10 ? `${shown}, ... (${list.length - 10} more)` : shown;
};


/** Judges the gates that were set. Pure. */
export function trendGates(failing: readonly FailingQuestion[], flaky: readonly FlakyQuestion[], gates: TrendGates): GateResult[] {
  const out: GateResult[] = [];
  if (gates.maxNewFailures !== undefined) {
    const fresh = failing.filter((q) => q.newFailure);
    const max = gates.maxNewFailures;
    const passed = fresh.length <= max;
    out.push({
      gate: '--max-new-failures',
      metric: 'newFailures',
      threshold: max,
      value: fresh.length,
      passed,
      message: passed ? `${plural(fresh.length, 'new failure')} <= --max-new-failures ${max}` : `${plural(fresh.length, 'new failure')} > --max-new-failures ${max} (over by ${fresh.length - max}): ${ids(fresh)}`,
    });
  }
  if (gates.maxFlaky !== undefined) {
    const max = gates.maxFlaky;
    const passed = flaky.length <= max;
    out.push({
      gate: '--max-flaky',
      metric: 'flaky',
      threshold: max,
      value: flaky.length,
      passed,
      message: passed ? `${plural(flaky.length, 'flaky question')} <= --max-flaky ${max}` : `${plural(flaky.length, 'flaky question')} > --max-flaky ${max} (over by ${flaky.length - max}): ${ids(flaky)}`,
    });
  }
  return out;
}
