import { numberOption, WHOLE_AT_LEAST_0, WHOLE_AT_LEAST_1 } from '../../util/numbers.js';
import { buildTrend, TREND_DEFAULTS } from '../../trend/build.js';
import { findRuns } from '../../trend/discover.js';
import { checkQuarantineOut, parseTrendFormats, writeTrend } from '../../trend/write.js';
import { defineCommand } from '../command.js';
import { EXIT_CODES_HELP } from '../exit-codes.js';
import { verdictOf } from '../../model/verdict.js';
import { ensureDir } from '../../util/out-dir.js';
import { enforceGates } from '../gates.js';
import { GateNotJudgedError, NothingMeasuredError } from '../../errors.js';
import { gatesNotJudged, latestRun, newerLeftOut, unmeasuredLatest } from '../../trend/gates.js';
import { leftOutRuns } from '../left-out-runs.js';
import { whatIfLine } from '../../trend/what-if.js';
import { plural } from '../../util/text.js';
import { print, printError } from '../../job/output.js';
import { oneLine } from '../../util/terminal.js';
import { pathOption } from '../../util/path-option.js';

/** The reason of a reader's message, whose file the warning names already. */
const withoutPrefix = (message: string, prefix: string): string => (message.startsWith(prefix) ? message.slice(prefix.length) : message);

export const trendCommand = defineCommand({
  command: 'trend <dirs..>',
  describe: 'the history of many runs: figures over time, failing-since, flaky questions; writes trend.html, trend.md, trend.json and quarantine.txt',
  builder: (y) =>
    y
      .positional('dirs', { type: 'string', array: true, demandOption: true, describe: 'run directories (each with its report.json), or directories holding them (e.g. one per night)' })
      .option('out', { alias: 'o', ...pathOption, default: 'reports/trend', describe: 'where trend.html, trend.md, trend.json and quarantine.txt go (a quarantine.txt trend did not write, or edited since, is refused)' })
      .option('format', { type: 'string', default: 'all', describe: 'files to write, comma-separated: html,md,json,quarantine (quarantine.txt: the flaky questions, for --quarantine)' })
      .option('flaky-flips', { ...numberOption('flaky-flips', WHOLE_AT_LEAST_1), default: TREND_DEFAULTS.flakyFlips, describe: 'a question is flaky when its top-1 correctness flipped at least this often with neither it nor the service changed' })
      .option('include-what-ifs', {
        type: 'boolean',
        default: false,
        describe: 'show the reports written by rescore (what-ifs) among the runs, marked; they never count as history: not for failing, flaky, new, nor the gates',
      })
      .option('max-new-failures', { ...numberOption('max-new-failures', WHOLE_AT_LEAST_0), group: 'Gates:', describe: 'fail (exit 1) when more questions than this fail in the latest run after passing the last time they were judged' })
      .option('max-flaky', { ...numberOption('max-flaky', WHOLE_AT_LEAST_0), group: 'Gates:', describe: 'fail (exit 1) when more questions than this are flaky' })
      .example('answer-eval trend reports/nightly -o reports/trend', 'every night under reports/nightly: trend.html, trend.md, trend.json, quarantine.txt')
      .example('answer-eval trend reports/nightly --max-new-failures 0 --max-flaky 5', 'fail when a question started failing last night, or too many are flaky')
      .epilogue(
        'Runs are put in start-time order. A report written by rescore is a what-if, not a night of history: it is left out (and said) unless --include-what-ifs. ' +
          `Gates are judged after every file is written; a failed gate exits 1.\n\n${EXIT_CODES_HELP}`,
      ),
  handler: async (argv) => {
    const formats = parseTrendFormats(argv.format);
    // a run that cannot be read does not hide the others: it is left out, said here and in every file written
    const leftOut: { path: string; why: string }[] = [];
    const leave = (path: string, why: string): void => {
      leftOut.push({ path, why });
      printError(`answer-eval: warning: ${oneLine(path)} is left out of the trend: ${oneLine(why)}\n`);
    };
    const reports = await findRuns(argv.dirs, leave);
    await checkQuarantineOut(argv.out, formats); // a quarantine.txt reviewed by hand, or run --repeat's, is not written over
    await ensureDir(argv.out, '--out'); // before the long read, after the runs are found (no empty --out left behind)
    const gates = {
      ...(argv.maxNewFailures !== undefined ? { maxNewFailures: argv.maxNewFailures } : {}),
      ...(argv.maxFlaky !== undefined ? { maxFlaky: argv.maxFlaky } : {}),
    };
    const trend = await buildTrend(reports, {
      flakyFlips: argv.flakyFlips,
      includeWhatIfs: argv.includeWhatIfs,
      onUnreadable: (path, error) => leave(path, withoutPrefix(error.message, `${path}: `)),
      gates,
    });
    if (leftOut.length > 0) trend.leftOut = leftOut;
    // the gates are about tonight: a run left out that may be newer than the latest one read leaves them unjudged
    const newer = trend.gates.length > 0 && leftOut.length > 0 ? newerLeftOut(latestRun(trend.runs), await leftOutRuns(leftOut.map((l) => l.path))) : undefined;
    if (newer !== undefined) {
      trend.gates = gatesNotJudged(gates, newer);
      trend.verdict = 'failed';
    }
    const whatIfs = trend.whatIfs?.runs ?? [];
    if (whatIfs.length > 0) {
      const how = trend.whatIfs!.included
        ? 'shown among the runs as what-ifs (--include-what-ifs); they count for no failing, flaky or new question, nor for the gates'
        : 'left out of the trend (a run judged again is not a night of history; --include-what-ifs shows them, marked)';
      printError(`answer-eval: ${plural(whatIfs.length, 'report')} written by rescore ${how}:\n${whatIfs.map((w) => `  ${whatIfLine(w)}\n`).join('')}`);
    }
    const written = await writeTrend(trend, argv.out, formats);
    const fresh = trend.failing.filter((q) => q.newFailure).length;
    const real = trend.runs.filter((r) => !r.rescored).length;
    const notes = [
      ...(leftOut.length > 0 ? [`${leftOut.length} left out, see above`] : []),
      ...(whatIfs.length > 0 ? [`${plural(whatIfs.length, 'what-if')} ${trend.whatIfs!.included ? 'shown apart' : 'left out'}`] : []),
    ];
    print(
      `answer-eval trend: ${plural(real, 'run')}${notes.length > 0 ? ` (${notes.join('; ')})` : ''}, ${trend.questions} questions; latest run: ${trend.failing.length} failing (${fresh} new), ${trend.flaky.length} flaky\n  written: ${written.join(', ')}\n`,
    );
    // the latest night is what a nightly gate is about: a partial one is said, and one that measured nothing fails it
    const latest = latestRun(trend.runs);
    if (latest.status === 'partial') printError(`answer-eval: warning: the latest run, ${latest.path}, is PARTIAL: it stopped before asking every question, and those it did not ask count as neither failing nor new\n`);
    const empty = latest.judged === 0 ? unmeasuredLatest(latest) : undefined;
    if (empty !== undefined) printError(`answer-eval: warning: ${empty}\n`);
    const unmeasured =
      newer !== undefined
        ? new GateNotJudgedError(`${newer}; no gate can be judged on an older run (write it again, or move it out of the history)`)
        : empty !== undefined && trend.gates.length > 0
          ? new NothingMeasuredError(`${empty}; no gate can be judged on it`)
          : undefined;
    enforceGates(verdictOf(trend.gates), { unmeasured });
  },
});
