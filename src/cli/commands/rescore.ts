import { resolve } from 'node:path';
import { ConfigError, NothingMeasuredError } from '../../errors.js';
import { nothingMeasured } from '../../model/measured.js';
import { reportFile } from '../../report/read.js';
import { renderConsoleSummary } from '../../report/console.js';
import { parseFormats, writeReports } from '../../report/write.js';
import { rescoreReport } from '../../rescore/rescore.js';
import { defineCommand } from '../command.js';
import { FINITE, numberOption } from '../../util/numbers.js';
import { EXIT_CODES_HELP } from '../exit-codes.js';
import { claimReportDir } from '../run-dir.js';
import { print, printError } from '../../job/output.js';
import { unseenExpectations, unseenNotes } from '../../score/unseen.js';
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
  handler: async (argv) => {
    const formats = parseFormats(argv.format);
    const from = await reportFile(argv.from);
    // the results are read from the original report at every pass: it must not be replaced while they are
    if (resolve(argv.out, 'report.json') === resolve(from)) throw new ConfigError(`--out ${argv.out} is where ${from} is: rescore into another directory`);
    const data = await rescoreReport(from, {
      ...(argv.dataset !== undefined ? { dataset: argv.dataset } : {}),
      ...(argv.aliases !== undefined ? { aliases: argv.aliases } : {}),
      ...(argv.floor !== undefined ? { floor: argv.floor } : {}),
    });
    const target = await claimReportDir(argv.out, { overwrite: argv.overwrite, command: 'rescore' });
    const written = await target.write((dir) => writeReports(data, dir, formats));
    const r = data.head.run.rescored!;
    const what = [
      r.dataset.from === r.dataset.to ? 'same dataset' : `dataset sha256 ${r.dataset.from.slice(0, 12)}… → ${r.dataset.to.slice(0, 12)}…`,
      r.aliases === null ? 'no alias file' : `aliases ${r.aliases}`,
      r.floor === null ? 'no floor' : `floor ${r.floor}`,
      ...(r.leftOut > 0 ? [`${r.leftOut} question(s) left out (not in the dataset)`] : []),
    ];
    print(`${renderConsoleSummary(data.head)}\n  rescored ${from}: ${what.join(', ')}\n  reports: ${written.join(', ')}\n`);
    for (const note of unseenNotes(unseenExpectations(data.results), argv.dataset ?? data.head.run.dataset.path)) printError(`answer-eval: warning: ${note}\n`);
    // answers that were all errors judge to nothing, however they are judged again
    const unmeasured = nothingMeasured(data.head);
    if (unmeasured !== undefined) throw new NothingMeasuredError(`${unmeasured}; the rescored reports are written`);
  },
});
