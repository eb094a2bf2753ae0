import { numberOption, WHOLE_AT_LEAST_0, WHOLE_AT_LEAST_1 } from '../../util/numbers.js';
import { buildTrend, TREND_DEFAULTS } from '../../trend/build.js';
import { findRuns } from '../../trend/discover.js';
import { parseTrendFormats, writeTrend } from '../../trend/write.js';
import { defineCommand } from '../command.js';
import { EXIT_CODES_HELP } from '../exit-codes.js';
import { verdictOf } from '../../model/verdict.js';
import { ensureDir } from '../../util/out-dir.js';
import { enforceGates } from '../gates.js';

/** The reason of a reader's message, whose file the warning names already. */
const withoutPrefix = (message: string, prefix: string): string => (message.startsWith(prefix) ? message.slice(prefix.length) : message);

export const trendCommand = defineCommand({
  command: 'trend <dirs..>',
  describe: 'the history of many runs: figures over time, failing-since, flaky questions; writes trend.html, trend.md and trend.json',
  builder: (y) =>
    y
      .positional('dirs', { type: 'string', array: true, demandOption: true, describe: 'run directories (each with its report.json), or directories holding them (e.g. one per night)' })
      .option('out', { alias: 'o', type: 'string', default: 'reports/trend', describe: 'where trend.html, trend.md and trend.json go' })
      .option('format', { type: 'string', default: 'all', describe: 'files to write, comma-separated: html,md,json' })
      .option('flaky-flips', { ...numberOption('flaky-flips', WHOLE_AT_LEAST_1), default: TREND_DEFAULTS.flakyFlips, describe: 'a question is flaky when its top-1 correctness flipped at least this often with neither it nor the service changed' })
      .option('max-new-failures', { ...numberOption('max-new-failures', WHOLE_AT_LEAST_0), group: 'Gates:', describe: 'fail (exit 1) when more questions than this fail in the latest run after passing the last time they were judged' })
      .option('max-flaky', { ...numberOption('max-flaky', WHOLE_AT_LEAST_0), group: 'Gates:', describe: 'fail (exit 1) when more questions than this are flaky' })
      .epilogue(`Runs are put in start-time order. Gates are judged after every file is written; a failed gate exits 1.\n\n${EXIT_CODES_HELP}`),
  handler: async (argv) => {
    const formats = parseTrendFormats(argv.format);
    let leftOut = 0;
    const reports = await findRuns(argv.dirs, (message) => {
      leftOut++;
      process.stderr.write(`answer-eval: warning: ${message}\n`);
    });
    await ensureDir(argv.out, '--out'); // before the long read, after the runs are found (no empty --out left behind)
    const trend = await buildTrend(reports, {
      flakyFlips: argv.flakyFlips,
      // one night's report cut short does not hide all the others: it is left out, said here
      onUnreadable: (path, error) => {
        leftOut++;
        process.stderr.write(`answer-eval: warning: ${path} is left out of the trend: ${withoutPrefix(error.message, `${path}: `)}\n`);
      },
      gates: {
        ...(argv.maxNewFailures !== undefined ? { maxNewFailures: argv.maxNewFailures } : {}),
        ...(argv.maxFlaky !== undefined ? { maxFlaky: argv.maxFlaky } : {}),
      },
    });
    const written = await writeTrend(trend, argv.out, formats);
    const fresh = trend.failing.filter((q) => q.newFailure).length;
    process.stdout.write(
      `answer-eval trend: ${trend.runs.length} run${trend.runs.length === 1 ? '' : 's'}${leftOut > 0 ? ` (${leftOut} left out, see above)` : ''}, ${trend.questions} questions; latest run: ${trend.failing.length} failing (${fresh} new), ${trend.flaky.length} flaky\n  written: ${written.join(', ')}\n`,
    );
    enforceGates(verdictOf(trend.gates), (t) => process.stdout.write(t));
  },
});
