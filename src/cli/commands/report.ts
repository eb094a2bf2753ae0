import type { Argv } from 'yargs';
import { defineCommand } from '../command.js';
import { thresholdOptions } from '../../report/threshold-options.js';
import { pathOption } from '../../util/path-option.js';

const builder = (y: Argv) =>
  thresholdOptions(y)
    .option('from', { ...pathOption, describe: 'a saved report.json, or the directory a run wrote it to', demandOption: true })
    .option('format', { type: 'string', default: 'all', describe: 'reports to write, comma-separated (html,junit,md,csv,json)' })
    .option('out', { alias: 'o', ...pathOption, describe: 'report directory (default: the directory of the report.json)' })
    .option('kb', { ...pathOption, describe: 'the knowledge base the run was made against, for entry texts and categories and its coverage by the questions (the metrics and the coverage are computed again)' })
    .option('overwrite', { type: 'boolean', default: false, describe: "replace the run or report set another --out holds, once the new reports are all written (the report's own directory is always rewritten)" })
    .example('answer-eval report --from reports/nightly/2026-11-25 --format html', 'write report.html again beside its report.json')
    .example('answer-eval report --from reports/nightly/2026-11-25 --oos-share 0.3 -o reports/advice', 'the floor advice for live traffic with 30% out-of-scope questions');

export const reportCommand = defineCommand({
  command: 'report',
  describe: 'render reports again from a saved report.json',
  builder,
  handler: async (argv, io) => (await import('../../job/report.js')).report(argv, io),
});
