import { defineCommand } from '../command.js';
import { FINITE, numberOption } from '../../util/numbers.js';
import { EXIT_CODES_HELP } from '../exit-codes.js';
import { pathOption } from '../../util/path-option.js';

/** A run directory's report.json, or the report.json given. */
export const rescoreCommand = defineCommand({
  command: 'rescore <from>',
  describe: 'judge the answers a run received again, without a request: corrected dataset, alias file or floor threshold',
  builder: (y) =>
    y
      .positional('from', { type: 'string', demandOption: true, describe: 'a run directory (its report.json) or a report.json' })
      .option('out', { alias: 'o', ...pathOption, demandOption: true, describe: 'where the rescored reports go (not the run directory itself)' })
      .option('dataset', { alias: 'd', ...pathOption, describe: "a corrected dataset: the run's ids with changed expectations (default: the expectations the run recorded)" })
      .option('aliases', { ...pathOption, describe: "CSV of old,new sequence numbers applied to expected_sequence (default: the run's, from its journal)" })
      .option('floor', { ...numberOption('floor', FINITE), describe: 'drop answers scoring below this, as if the service had refused them (what-if of the floor threshold)' })
      .option('format', { type: 'string', default: 'all', describe: 'reports to write, comma-separated' })
      .option('overwrite', { type: 'boolean', default: false, describe: 'replace the run or report set --out holds, once the new reports are all written (without it, such a directory is refused)' })
      .example('answer-eval rescore reports/nightly/2026-11-25 --out reports/floor-45 --floor 45', 'what the run would have scored with the floor at 45')
      .example('answer-eval rescore reports/nightly/2026-11-25 --out reports/fixed -d faq-fixed.csv', 'the same answers judged against corrected expectations')
      .epilogue(`The rescored report is marked run.rescored (what changed) and reads like any other: compare, trend, merge.\n\n${EXIT_CODES_HELP}`),
  handler: async (argv, io) => (await import('../../job/rescore.js')).rescore(argv, io),
});
