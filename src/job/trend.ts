import { GateNotJudgedError, NothingMeasuredError } from '../errors.js';
import { verdictOf, type Verdict } from '../model/verdict.js';
import { buildTrend, TREND_DEFAULTS } from '../trend/build.js';
import { findRuns } from '../trend/discover.js';
import { gatesNotJudged, latestRun, newerLeftOut, unmeasuredLatest } from '../trend/gates.js';
import { whatIfLine } from '../trend/what-if.js';
import { checkQuarantineOut, parseTrendFormats, writeTrend } from '../trend/write.js';
import { ensureDir } from '../util/out-dir.js';
import { oneLine } from '../util/terminal.js';
import { plural } from '../util/text.js';
import { enforceGates } from './gates.js';
import type { JobIo } from './io.js';
import { job, type JobResult } from './job.js';
import { leftOutRuns } from './left-out-runs.js';

export interface TrendOptions {
  /** The runs: directories searched for report.json files, each a run. */
  dirs: string[];
  /** Where history.html, history.md, history.json and quarantine.txt go. */
  out: string;
  /** @default 'all' */
  format?: string | undefined;
  /** Verdict flips that make a question flaky. */
  flakyFlips?: number | undefined;
  /** Show the reports written by rescore among the runs, marked. @default false */
  includeWhatIfs?: boolean | undefined;
  maxNewFailures?: number | undefined;
  maxFlaky?: number | undefined;
}

export interface TrendJobResult extends JobResult {
  verdict?: Verdict | undefined;
}

/** The reason of a reader's message, whose file the warning names already. */
const withoutPrefix = (message: string, prefix: string): string => (message.startsWith(prefix) ? message.slice(prefix.length) : message);

/** `answer-eval trend`: the history of many runs (figures over time, failing-since, flaky questions) and its gates. */
export function trend(o: TrendOptions, io?: JobIo): Promise<TrendJobResult> {
  const result: TrendJobResult = { exitCode: 0 };
  return job(io, result, async (ctx) => {
    const { print, printError } = ctx.out;
    const formats = parseTrendFormats(o.format ?? 'all');
    // a run that cannot be read does not hide the others: it is left out, said here and in every file written
    const leftOut: { path: string; why: string }[] = [];
    const leave = (path: string, why: string): void => {
      leftOut.push({ path, why });
      printError(`answer-eval: warning: ${oneLine(path)} is left out of the trend: ${oneLine(why)}\n`);
    };
    const reports = await findRuns(o.dirs, leave);
    await checkQuarantineOut(o.out, formats); // a quarantine.txt reviewed by hand, or run --repeat's, is not written over
    await ensureDir(o.out, '--out'); // before the long read, after the runs are found (no empty --out left behind)
    const gates = {
      ...(o.maxNewFailures !== undefined ? { maxNewFailures: o.maxNewFailures } : {}),
      ...(o.maxFlaky !== undefined ? { maxFlaky: o.maxFlaky } : {}),
    };
    const history = await buildTrend(reports, {
      flakyFlips: o.flakyFlips ?? TREND_DEFAULTS.flakyFlips,
      includeWhatIfs: o.includeWhatIfs ?? false,
      onUnreadable: (path, error) => leave(path, withoutPrefix(error.message, `${path}: `)),
      gates,
    });
    if (leftOut.length > 0) history.leftOut = leftOut;
    // the gates are about tonight: a run left out that may be newer than the latest one read leaves them unjudged
    const newer = history.gates.length > 0 && leftOut.length > 0 ? newerLeftOut(latestRun(history.runs), await leftOutRuns(leftOut.map((l) => l.path))) : undefined;
    if (newer !== undefined) {
      history.gates = gatesNotJudged(gates, newer);
      history.verdict = 'failed';
    }
    const whatIfs = history.whatIfs?.runs ?? [];
    if (whatIfs.length > 0) {
      const how = history.whatIfs!.included
        ? 'shown among the runs as what-ifs (--include-what-ifs); they count for no failing, flaky or new question, nor for the gates'
        : 'left out of the trend (a run judged again is not a night of history; --include-what-ifs shows them, marked)';
      printError(`answer-eval: ${plural(whatIfs.length, 'report')} written by rescore ${how}:\n${whatIfs.map((w) => `  ${whatIfLine(w)}\n`).join('')}`);
    }
    const written = await writeTrend(history, o.out, formats);
    const fresh = history.failing.filter((q) => q.newFailure).length;
    const real = history.runs.filter((r) => !r.rescored).length;
    const notes = [
      ...(leftOut.length > 0 ? [`${leftOut.length} left out, see above`] : []),
      ...(whatIfs.length > 0 ? [`${plural(whatIfs.length, 'what-if')} ${history.whatIfs!.included ? 'shown apart' : 'left out'}`] : []),
    ];
    print(
      `answer-eval trend: ${plural(real, 'run')}${notes.length > 0 ? ` (${notes.join('; ')})` : ''}, ${history.questions} questions; latest run: ${history.failing.length} failing (${fresh} new), ${history.flaky.length} flaky\n  written: ${written.join(', ')}\n`,
    );
    // the latest night is what a nightly gate is about: a partial one is said, and one that measured nothing fails it
    const latest = latestRun(history.runs);
    if (latest.status === 'partial') printError(`answer-eval: warning: the latest run, ${latest.path}, is PARTIAL: it stopped before asking every question, and those it did not ask count as neither failing nor new\n`);
    const empty = latest.judged === 0 ? unmeasuredLatest(latest) : undefined;
    if (empty !== undefined) printError(`answer-eval: warning: ${empty}\n`);
    const unmeasured =
      newer !== undefined
        ? new GateNotJudgedError(`${newer}; no gate can be judged on an older run (write it again, or move it out of the history)`)
        : empty !== undefined && history.gates.length > 0
          ? new NothingMeasuredError(`${empty}; no gate can be judged on it`)
          : undefined;
    result.verdict = verdictOf(history.gates);
    enforceGates(ctx, result.verdict, { unmeasured });
  });
}
