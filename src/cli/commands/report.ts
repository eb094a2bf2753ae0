import { dirname } from 'node:path';
import type { Argv } from 'yargs';
import { readReport } from '../../report/read.js';
import { fromReport } from '../../model/source.js';
import { parseFormats, writeReports } from '../../report/write.js';
import { defineCommand } from '../command.js';

const builder = (y: Argv) =>
  y
    .option('from', { type: 'string', describe: 'a saved report.json', demandOption: true })
    .option('format', { type: 'string', default: 'all', describe: 'reports to write, comma-separated (html,junit,md,csv,json)' })
    .option('out', { alias: 'o', type: 'string', describe: 'report directory (default: the directory of --from)' });

export const reportCommand = defineCommand({
  command: 'report',
  describe: 'render reports again from a saved report.json',
  builder,
  handler: async (argv) => {
    const formats = parseFormats(argv.format);
    const report = await readReport(argv.from);
    const written = await writeReports(fromReport(report), argv.out ?? dirname(argv.from), formats);
    process.stdout.write(`reports: ${written.join(', ')}\n`);
  },
});
