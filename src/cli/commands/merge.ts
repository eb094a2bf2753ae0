import { defineCommand } from '../command.js';
import { pathOption } from '../../util/path-option.js';

export const mergeCommand = defineCommand({
  command: 'merge <dirs..>',
  describe: 'combine the report directories of --shard runs into one report set',
  builder: (y) =>
    y
      .positional('dirs', { type: 'string', array: true, demandOption: true, describe: 'report directories of the shards (each with its report.json)' })
      .option('out', { alias: 'o', ...pathOption, default: 'reports/merged', describe: 'where the merged reports go' })
      .option('format', { type: 'string', default: 'all', describe: 'reports to write, comma-separated' })
      .option('allow-partial', { type: 'boolean', default: false, describe: 'merge an incomplete set of shards (the report is marked partial and names the missing ones)' })
      .option('overwrite', { type: 'boolean', default: false, describe: 'replace the run or report set --out holds, once the new reports are all written (without it, such a directory is refused)' })
      .example('answer-eval merge reports/shard-1 reports/shard-2 reports/shard-3 -o reports/merged', 'one report set from the --shard runs of a CI matrix')
      .example('answer-eval merge reports/shard-* -o reports/merged --allow-partial', 'merge what came back, marked partial, naming the missing shards'),
  handler: async (argv, io) => (await import('../../job/merge.js')).merge(argv, io),
});
