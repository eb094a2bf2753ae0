import type { GateResult } from '../gate/gates.js';
import { countAtMost, firstIds } from '../gate/threshold.js';
import type { FailingQuestion, FlakyQuestion } from './schema.js';
import { plural } from '../util/text.js';

/** CI gates on a history. */
export interface TrendGates {
  /** Fail when more questions than this fail in the latest run after passing the last time they were judged. */
  maxNewFailures?: number;
  /** Fail when more questions than this are flaky. */
  maxFlaky?: number;
}

const ids = (list: readonly { id: string }[]): string => firstIds(list.map((q) => q.id));

/** Judges the gates that were set. Pure. */
export function trendGates(failing: readonly FailingQuestion[], flaky: readonly FlakyQuestion[], gates: TrendGates): GateResult[] {
  const out: GateResult[] = [];
  if (gates.maxNewFailures !== undefined) {
    const fresh = failing.filter((q) => q.newFailure);
    out.push(countAtMost('--max-new-failures', 'newFailures', fresh.length, gates.maxNewFailures, () => plural(fresh.length, 'new failure'), ids(fresh)));
  }
  if (gates.maxFlaky !== undefined) {
    out.push(countAtMost('--max-flaky', 'flaky', flaky.length, gates.maxFlaky, () => plural(flaky.length, 'flaky question'), ids(flaky)));
  }
  return out;
}
