import { dirname, resolve } from 'node:path';
import type { Argv } from 'yargs';
import { openReport, reportFile } from '../../report/read.js';
import { parseFormats, writeReports } from '../../report/write.js';
import { knowledgeBaseEntries } from '../../run/knowledge-base.js';
import { computeMetrics } from '../../score/metrics/index.js';
import { defineCommand } from '../command.js';
import { claimReportDir } from '../run-dir.js';
import { thresholdOptions, thresholdOptionsOf } from '../threshold-options.js';
import { print } from '../../job/output.js';
import { pathOption } from '../../util/path-option.js';

const builder = (y: Argv) =>
  thresholdOptions(y)
    .option('from', { ...pathOption, describe: 'a saved report.json, or the directory a run wrote it to', demandOption: true })
    .option('format', { type: 'string', default: 'all', describe: 'reports to write, comma-separated (html,junit,md,csv,json)' })
    .option('out', { alias: 'o', ...pathOption, describe: 'report directory (default: the directory of the report.json)' })
    .option('kb', { ...pathOption, describe: 'the knowledge base the run was made against, for entry texts and categories (the metrics are computed again)' })
    .option('overwrite', { type: 'boolean', default: false, describe: "replace the run or report set another --out holds, once the new reports are all written (the report's own directory is always rewritten)" })
    .example('answer-eval report --from reports/nightly/2026-11-25 --format html', 'write report.html again beside its report.json')
    .example('answer-eval report --from reports/nightly/2026-11-25 --oos-share 0.3 -o reports/advice', 'the floor advice for live traffic with 30% out-of-scope questions');

export const reportCommand = defineCommand({
  command: 'report',
  describe: 'render reports again from a saved report.json',
  builder,
  handler: async (argv) => {
    const from = await reportFile(argv.from);
    const out = argv.out ?? dirname(from);
    // the results are read from --from at every pass: a report.json rewritten in place is written last
    const inPlace = resolve(out, 'report.json') === resolve(from);
    const formats = parseFormats(argv.format).sort((a, b) => (inPlace ? Number(a === 'json') - Number(b === 'json') : 0));
    const data = await openReport(from);
    // new advice options or a knowledge base: the metrics are computed again, from the results
    const thresholds = thresholdOptionsOf(argv);
    if (thresholds !== undefined || argv.kb !== undefined) {
      const knowledgeBase = argv.kb === undefined ? undefined : await knowledgeBaseEntries(argv.kb);
      data.head = { ...data.head, metrics: computeMetrics(data.results, { ...(knowledgeBase ? { knowledgeBase } : {}), ...(thresholds ? { thresholds } : {}) }) };
    }
    // the report's own directory is rewritten as it is; another that holds a run is refused, unless --overwrite
    const target = await claimReportDir(out, { overwrite: argv.overwrite, command: 'report', inPlace });
    const written = await target.write((dir) => writeReports(data, dir, formats));
    print(`reports: ${written.join(', ')}\n`);
  },
});
