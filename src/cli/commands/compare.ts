import type { Argv } from 'yargs';
import { gateOptions } from '../../gate/options.js';
import { defineCommand } from '../command.js';
import { EXIT_CODES_HELP } from '../exit-codes.js';
import { pathOption } from '../../util/path-option.js';

const builder = (y: Argv) =>
  gateOptions(
    y
      .positional('base', { type: 'string', describe: 'the baseline report.json, or the directory a run wrote it to', demandOption: true })
      .positional('head', { type: 'string', describe: 'the new report.json, or the directory a run wrote it to', demandOption: true })
      .option('out', { alias: 'o', ...pathOption, describe: 'where compare.json, compare.html, compare.md, changes.jsonl and compare.junit.xml go (default: the directory of HEAD)' })
      .option('force', { type: 'boolean', default: false, describe: 'compare even when the schemaVersion major or the agent differ (another dataset is fine: questions are matched by id)' }),
  )
    .example('answer-eval compare main/report.json reports/pr-17 --fail-on regression', 'fail (exit 1) on any question broken since the baseline')
    .example('answer-eval compare reports/nightly/2026-11-24 reports/nightly/2026-11-25 --fail-on significant-regression', 'two nights: fail only on a significant drop')
    .epilogue(
      'Quality gates (--min-*, --max-error-rate, --max-fallback-missed-rate) are judged on HEAD; regression gates (--fail-on, --max-broken) on the comparison. ' +
        'Errors are never regressions: gate them with --max-error-rate. compare.junit.xml holds HEAD\'s questions as tests: a failure only when broken (or new, or edited), skipped when failing in BASE too or quarantined.' +
        `\n\n${EXIT_CODES_HELP}`,
    );

export const compareCommand = defineCommand({
  command: 'compare <base> <head>',
  describe: 'compare two report.json files question by question, with statistics, and apply gates',
  builder,
  handler: async (argv, io) => (await import('../../job/compare.js')).compare(argv, io),
});
