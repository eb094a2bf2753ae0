import { dirname, resolve } from 'node:path';
import type { Argv } from 'yargs';
import { openReport } from '../../report/read.js';
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
    const out = argv.out ?? dirname(argv.from);
    // the results are read from --from at every pass: a report.json rewritten in place is written last
    const inPlace = resolve(out, 'report.json') === resolve(argv.from);
    const formats = parseFormats(argv.format).sort((a, b) => (inPlace ? Number(a === 'json') - Number(b === 'json') : 0));
    const written = await writeReports(await openReport(argv.from), out, formats);
    process.stdout.write(`reports: ${written.join(', ')}\n`);
  },
});
