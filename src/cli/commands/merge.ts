import { join } from 'node:path';
import { mergeReports } from '../../merge/merge.js';
import { renderConsoleSummary } from '../../report/console.js';
import { readReport } from '../../report/read.js';
import { fromReport } from '../../report/source.js';
import { parseFormats, writeReports } from '../../report/write.js';
import { defineCommand } from '../command.js';

export const mergeCommand = defineCommand({
  command: 'merge <dirs..>',
  describe: 'combine the report directories of --shard runs into one report set',
  builder: (y) =>
    y
      .positional('dirs', { type: 'string', array: true, demandOption: true, describe: 'report directories of the shards' })
      .option('out', { alias: 'o', type: 'string', default: 'reports/merged', describe: 'where the merged reports go' })
      .option('format', { type: 'string', default: 'all', describe: 'reports to write, comma-separated' }),
  handler: async (argv) => {
    const formats = parseFormats(argv.format);
    const shards = await Promise.all(
      argv.dirs.map(async (dir) => {
        const path = join(dir, 'report.json');
        return { path, report: await readReport(path) };
      }),
    );
    const report = mergeReports(shards);
    const written = await writeReports(fromReport(report), argv.out, formats);
    process.stdout.write(`${renderConsoleSummary(report)}\n  merged ${shards.length} shards\n  reports: ${written.join(', ')}\n`);
  },
});
