import { numberOption, WHOLE_AT_LEAST_0, WHOLE_AT_LEAST_1 } from '../../util/numbers.js';
import { TREND_DEFAULTS } from '../../trend/options.js';
import { defineCommand } from '../command.js';
import { EXIT_CODES_HELP } from '../exit-codes.js';
import { pathOption } from '../../util/path-option.js';


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
  handler: async (argv, io) => (await import('../../job/trend.js')).trend(argv, io),
});
