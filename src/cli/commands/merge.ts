import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { checkShards, mergeShards } from '../../merge/merge.js';
import { shardResults } from '../../merge/reports.js';
import { renderConsoleSummary } from '../../report/console.js';
import { readReportHead, reportFile } from '../../report/read.js';
import { parseFormats, writeReports } from '../../report/write.js';
import { defineCommand } from '../command.js';
import { claimReportDir } from '../run-dir.js';
import { print } from '../../job/output.js';
import { NothingMeasuredError } from '../../errors.js';
import { nothingMeasured } from '../../model/measured.js';
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
  handler: async (argv) => {
    const formats = parseFormats(argv.format);
    const shards = await Promise.all(
      argv.dirs.map(async (dir) => {
        // a shard's directory (or its report.json); one without a report.json says why, e.g. a shard that stopped early
        const path = existsSync(dir) ? await reportFile(dir) : join(dir, 'report.json');
        return { path, head: await readReportHead(path) };
      }),
    );
    checkShards(shards, { allowPartial: argv.allowPartial });
    const data = mergeShards(shards, await shardResults(shards.map((s) => s.path)));
    const target = await claimReportDir(argv.out, { overwrite: argv.overwrite, command: 'merge' });
    const written = await target.write((dir) => writeReports(data, dir, formats));
    print(`${renderConsoleSummary(data.head)}\n  merged ${shards.length} shards\n  reports: ${written.join(', ')}\n`);
    // shards whose every question ended in error measured nothing together either: never a green exit
    const unmeasured = nothingMeasured(data.head);
    if (unmeasured !== undefined) throw new NothingMeasuredError(`${unmeasured}; the merged reports are written`);
  },
});
