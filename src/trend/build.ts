import { ConfigError } from '../errors.js';
import { TREND_DEFAULTS } from './options.js';
import { answerableFraction, OUTCOME_CLASSES, outOfScopeFraction, top1Fraction } from '../model/outcome.js';
import { QuestionResultSchema } from '../model/report.js';
import type { ReportHead } from '../model/source.js';
import { readReportHead, scanReport } from '../report/read.js';
import { wilson } from '../score/metrics/wilson.js';
import { TOOL_NAME, TOOL_VERSION } from '../version.js';
import { latestRun, trendGates, type TrendGates } from './gates.js';
import { QuestionHistory } from './history.js';
import { identityHash, runChanges, serviceIdentity } from './identity.js';
import { TREND_SCHEMA_VERSION, type FailingQuestion, type FlakyQuestion, type Trend, type TrendRun } from './schema.js';
import { whatIfWords, type WhatIf } from './what-if.js';

export interface TrendOptions {
  /** A question is flaky when its top-1 correctness flipped at least this often with nothing changed. @default 2 */
  flakyFlips?: number;
  gates?: TrendGates;
  /**
   * When set, a run that cannot be read (cut off, not JSON, not a report) is left out and handed here with why, and
   * the trend goes on with the others; without it, such a run stops the trend with its error.
   */
  onUnreadable?: (path: string, error: ConfigError) => void;
  /**
   * Keep the reports written by `rescore` (what-ifs) in `runs`, marked; by default they are left out. Either way they
   * count for no failing, flaky or new question, nor for the gates: only real runs make the history.
   * @default false
   */
  includeWhatIfs?: boolean;
}

export { TREND_DEFAULTS };

/** What the history reads of each result: less to check than a whole result, and the answers are not parsed into objects twice. */
const ObservedSchema = QuestionResultSchema.pick({ id: true, question: true, language: true, expected: true, outcome: true, reason: true });

/** What a run contributes besides its results: its place in time, identity and headline figures. */
function runOf(path: string, head: ReportHead): TrendRun & { identity: Map<string, string>; order: string[] } {
  const { summary: s, run } = head;
  const identity = serviceIdentity(head);
  const top1 = top1Fraction(s.outcomes);
  const answerable = answerableFraction(s.outcomes);
  const oos = outOfScopeFraction(s.outcomes);
  return {
    path,
    startedAt: run.startedAt,
    status: run.status,
    rescored: run.rescored !== undefined,
    ...(run.rescored ? { whatIf: { from: run.rescored.from, what: whatIfWords(run.rescored) } } : {}),
    dataset: { path: run.dataset.path, sha256: run.dataset.sha256 },
    service: identityHash(identity),
    changes: [],
    total: s.total,
    figures: {
      top1Accuracy: wilson(top1.successes, top1.n),
      answerableAccuracy: wilson(answerable.successes, answerable.n),
      outOfScopeRecall: wilson(oos.successes, oos.n),
      errorRate: wilson(s.outcomes.error, s.total),
      latencyP50: s.latencyMs.p50,
      latencyP90: s.latencyMs.p90,
    },
    identity,
    // a rescored report keeps the times of its run: it comes right after it, rescores in the order they were made
    order: [run.startedAt, run.rescored?.at ?? '', path],
  };
}

const byOrder = (a: { order: string[] }, b: { order: string[] }): number => {
  for (let k = 0; k < a.order.length; k++) if (a.order[k] !== b.order[k]) return a.order[k]! < b.order[k]! ? -1 : 1;
  return 0;
};

type Run = ReturnType<typeof runOf>;
type Failing = Omit<FailingQuestion, 'failingSince' | 'everPassed'> & { slot: number };

/** When every run given was left out (each handed to `onUnreadable`, which the CLI prints). */
const noneReadable = (given: number): ConfigError =>
  new ConfigError(
    given === 0 ? 'trend needs at least one run' : given === 1 ? 'trend: the run given cannot be read (see above)' : `trend: none of the ${given} runs given can be read (each is named above, with why)`,
  );

/**
 * Every run's results in one streaming pass each, oldest first, into a fixed state per question; or the run that
 * cannot be read and why (what was read of it is then in the history: start again without it).
 */
async function scanRuns(runs: readonly Run[], flakyFlips: number): Promise<{ history: QuestionHistory; failing: Failing[]; flaky: FlakyQuestion[] } | { unreadable: Run; error: ConfigError }> {
  const history = new QuestionHistory();
  const failing: Failing[] = [];
  const flaky: FlakyQuestion[] = [];
  const latestReal = runs.findLastIndex((r) => !r.rescored);
  for (const [index, run] of runs.entries()) {
    const at = history.startRun(run.service);
    const latest = index === latestReal;
    try {
      // a what-if is read through (a cut-off one is left out like any run) but observes nothing
      await scanReport(run.path, ObservedSchema, (r) => {
        if (run.rescored) return;
        const { slot, before } = history.observe(at, r);
        if (!latest) return;
        if (OUTCOME_CLASSES[r.outcome].failing) {
          failing.push({ id: r.id, question: r.question, outcome: r.outcome, ...(r.reason !== undefined ? { reason: r.reason } : {}), newFailure: before === true, slot });
        }
        const flips = history.flips(slot);
        if (flips >= flakyFlips) flaky.push({ id: r.id, question: r.question, flips, correctNow: QuestionHistory.correctness(r.outcome) });
      });
    } catch (error) {
      if (error instanceof ConfigError) return { unreadable: run, error };
      throw error;
    }
  }
  return { history, failing, flaky };
}

/**
 * The history of the runs whose report.json files are given (any order: they are put in start-time order). Reads
 * each head, then each run's results in one streaming pass, oldest first, into a fixed state per question
 * (QuestionHistory): memory grows with the number of questions, not with runs × questions. A run that cannot be
 * read is left out when `onUnreadable` is set (the others are read again, only then); none readable is a ConfigError.
 */
export async function buildTrend(reports: readonly string[], options: TrendOptions = {}): Promise<Trend> {
  const flakyFlips = options.flakyFlips ?? TREND_DEFAULTS.flakyFlips;
  const unreadable = (path: string, error: unknown): void => {
    if (!(error instanceof ConfigError) || !options.onUnreadable) throw error;
    options.onUnreadable(path, error);
  };
  const runs: Run[] = [];
  for (const path of reports) {
    try {
      runs.push(runOf(path, await readReportHead(path))); // one head at a time: a head holds a report's metrics
    } catch (error) {
      unreadable(path, error);
    }
  }
  runs.sort(byOrder);
  const whatIfsOf = (list: readonly Run[]): WhatIf[] => list.flatMap((r) => (r.whatIf ? [{ path: r.path, ...r.whatIf }] : []));
  let whatIfs = whatIfsOf(runs);
  if (runs.length > 0 && whatIfs.length === runs.length) throw onlyWhatIfs(whatIfs.length);
  if (!options.includeWhatIfs) runs.splice(0, runs.length, ...runs.filter((r) => !r.rescored));
  let scan = runs.length > 0 ? await scanRuns(runs, flakyFlips) : undefined;
  while (scan && 'unreadable' in scan) {
    unreadable(scan.unreadable.path, scan.error);
    runs.splice(runs.indexOf(scan.unreadable), 1);
    scan = runs.length > 0 ? await scanRuns(runs, flakyFlips) : undefined;
  }
  if (!scan) throw noneReadable(reports.length);
  if (options.includeWhatIfs) whatIfs = whatIfsOf(runs); // less those that could not be read
  if (runs.every((r) => r.rescored)) throw onlyWhatIfs(whatIfs.length); // the real ones could not be read
  // each run against the real run before it: a what-if neither marks a change nor hides one
  let before: Run | undefined;
  for (const r of runs) {
    if (before) r.changes = runChanges(before, r);
    if (!r.rescored) before = r;
  }
  const { history, failing, flaky } = scan;

  const failingQuestions: FailingQuestion[] = failing
    .map(({ slot, ...q }) => ({ ...q, failingSince: history.failingSince(slot), everPassed: history.everPassed(slot) }))
    .map(({ id, question, outcome, reason, failingSince, everPassed, newFailure }) => ({ id, question, outcome, ...(reason !== undefined ? { reason } : {}), failingSince, everPassed, newFailure }))
    .sort((a, b) => b.failingSince - a.failingSince);
  flaky.sort((a, b) => b.flips - a.flips);
  const gates = trendGates(failingQuestions, flaky, options.gates ?? {}, latestRun(runs));
  return {
    schemaVersion: TREND_SCHEMA_VERSION,
    tool: { name: TOOL_NAME, version: TOOL_VERSION },
    options: { flakyFlips },
    runs: runs.map(({ identity: _, order: __, ...r }) => r),
    questions: history.size,
    failing: failingQuestions,
    flaky,
    gates,
    verdict: gates.length === 0 ? 'no-gates' : gates.every((g) => g.passed) ? 'passed' : 'failed',
    ...(whatIfs.length > 0 ? { whatIfs: { included: options.includeWhatIfs === true, runs: whatIfs } } : {}),
  };
}

const onlyWhatIfs = (n: number): ConfigError =>
  new ConfigError(
    `trend: ${n === 1 ? 'the one report that can be read was' : `all ${n} reports that can be read were`} written by answer-eval rescore (what-ifs of a run): ` +
      'a history needs at least one real run; give the run directories too',
  );
