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
  startedAt: string;
  status: 'completed' | 'partial';
  judged: number;
}

/** The last real run of a history in time order (what-ifs are not nights); there is one, or there is no trend. */
export function latestRun(runs: readonly { path: string; startedAt: string; status: LatestRun['status']; rescored: boolean; figures: { top1Accuracy: { n: number } } }[]): LatestRun {
  const { path, startedAt, status, figures } = runs.filter((r) => !r.rescored).at(-1)!;
  return { path, startedAt, status, judged: figures.top1Accuracy.n };
}

/** Said when the latest run judged no question: its night measured nothing, so no gate on it can pass. */
export const unmeasuredLatest = (latest: LatestRun): string =>
  `the latest run, ${latest.path}, judged no question (each ended in error or expects nothing): nothing was measured`;

/** Each gate set, failed as not judged, and why. Pure. */
export function gatesNotJudged(gates: TrendGates, why: string): GateResult[] {
  const set = [...(gates.maxNewFailures !== undefined ? ['--max-new-failures'] : []), ...(gates.maxFlaky !== undefined ? ['--max-flaky'] : [])];
  return set.map((gate) => ({ gate, metric: 'judged', threshold: 1, value: 0, passed: false, message: `${gate} cannot be judged: ${why}` }));
}

/** Judges the gates that were set; each fails, as not judged, when the latest run measured nothing. Pure. */
export function trendGates(failing: readonly FailingQuestion[], flaky: readonly FlakyQuestion[], gates: TrendGates, latest?: LatestRun): GateResult[] {
  const out: GateResult[] = [];
  if (latest !== undefined && latest.judged === 0) return gatesNotJudged(gates, unmeasuredLatest(latest));
  if (gates.maxNewFailures !== undefined) {
    const fresh = failing.filter((q) => q.newFailure);
    out.push(countAtMost('--max-new-failures', 'newFailures', fresh.length, gates.maxNewFailures, () => plural(fresh.length, 'new failure'), ids(fresh)));
  }
  if (gates.maxFlaky !== undefined) {
    out.push(countAtMost('--max-flaky', 'flaky', flaky.length, gates.maxFlaky, () => plural(flaky.length, 'flaky question'), ids(flaky)));
  }
  return out;
}

/** A run left out of the trend (it could not be read), with when it ran as far as can be told without its report. */
export interface LeftOutRun {
  path: string;
  /**
   * `started`: its start time (its report's head, its journal's header, or the start time at the top of its file);
   * `last written`: only its file's modification time; absent when nothing tells.
   */
  when?: { at: string; what: 'started' | 'last written' };
  /** Its head says `rescore` wrote it: a what-if, never the night a gate is about. */
  whatIf?: boolean;
}

/**
 * Why no gate can be judged: the first run left out that may be newer than the latest run read (started after it,
 * or last written after it started, or when it ran cannot be told). The gates are about the latest night: judged on
 * the night before, they would pass a night nobody read. Undefined when every run left out is older. Pure.
 */
export function newerLeftOut(latest: Pick<LatestRun, 'path' | 'startedAt'>, leftOut: readonly LeftOutRun[]): string | undefined {
  const since = Date.parse(latest.startedAt);
  const read = `the latest run read (${latest.path}, started ${latest.startedAt})`;
  for (const run of leftOut) {
    if (run.whatIf) continue;
    const at = run.when === undefined ? NaN : Date.parse(run.when.at);
    if (!Number.isNaN(at) && !Number.isNaN(since) && at <= since) continue;
    const subject = `${run.path}, which could not be read,`;
    if (run.when === undefined || Number.isNaN(at) || Number.isNaN(since)) return `${subject} may be newer than ${read}: when it ran cannot be told`;
    if (run.when.what === 'started') return `${subject} started at ${run.when.at}, after ${read}`;
    return `${subject} was last written at ${run.when.at} (when it started cannot be read), after ${read}`;
  }
  return undefined;
}
