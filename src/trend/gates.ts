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

/** The latest real run, and how many of its questions it judged (labeled, answered without error). */
export interface LatestRun {
  path: string;
  status: 'completed' | 'partial';
  judged: number;
}

/** The last real run of a history in time order (what-ifs are not nights); there is one, or there is no trend. */
export function latestRun(runs: readonly { path: string; status: LatestRun['status']; rescored: boolean; figures: { top1Accuracy: { n: number } } }[]): LatestRun {
  const { path, status, figures } = runs.filter((r) => !r.rescored).at(-1)!;
  return { path, status, judged: figures.top1Accuracy.n };
}

/** Said when the latest run judged no question: its night measured nothing, so no gate on it can pass. */
export const unmeasuredLatest = (latest: LatestRun): string =>
  `the latest run, ${latest.path}, judged no question (each ended in error or expects nothing): nothing was measured`;

/** Judges the gates that were set; each fails, as not judged, when the latest run measured nothing. Pure. */
export function trendGates(failing: readonly FailingQuestion[], flaky: readonly FlakyQuestion[], gates: TrendGates, latest?: LatestRun): GateResult[] {
  const out: GateResult[] = [];
  if (latest !== undefined && latest.judged === 0) {
    const set = [...(gates.maxNewFailures !== undefined ? ['--max-new-failures'] : []), ...(gates.maxFlaky !== undefined ? ['--max-flaky'] : [])];
    return set.map((gate) => ({ gate, metric: 'judged', threshold: 1, value: 0, passed: false, message: `${gate} cannot be judged: ${unmeasuredLatest(latest)}` }));
  }
  if (gates.maxNewFailures !== undefined) {
    const fresh = failing.filter((q) => q.newFailure);
    out.push(countAtMost('--max-new-failures', 'newFailures', fresh.length, gates.maxNewFailures, () => plural(fresh.length, 'new failure'), ids(fresh)));
  }
  if (gates.maxFlaky !== undefined) {
    out.push(countAtMost('--max-flaky', 'flaky', flaky.length, gates.maxFlaky, () => plural(flaky.length, 'flaky question'), ids(flaky)));
  }
  return out;
}
