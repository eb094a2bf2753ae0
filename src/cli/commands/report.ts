import { dirname, resolve } from 'node:path';
import type { Argv } from 'yargs';
import { openReport, reportFile } from '../../report/read.js';
import { parseFormats, writeReports } from '../../report/write.js';
import { readAliases } from '../../dataset/aliases.js';
import { loadKnowledgeBase } from '../../engine/kb.js';
import type { ReportHead } from '../../model/source.js';
import { runAliases } from '../../rescore/rescore.js';
import { coverageRefsOf, entriesOf } from '../../run/knowledge-base.js';
import type { CoverageBase } from '../../score/coverage.js';
import { scoreResults } from '../../score/metrics/index.js';
import { defineCommand } from '../command.js';
import { claimReportDir } from '../run-dir.js';
import { thresholdOptions, thresholdOptionsOf } from '../threshold-options.js';
import { print } from '../output.js';
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
      const kb = argv.kb === undefined ? undefined : await loadKnowledgeBase(argv.kb);
      const coverage = kb && (await coverageBase(data.head, from, { knowledgeBase: kb.file, entries: coverageRefsOf(kb) }));
      const scored = scoreResults(data.results, { ...(kb ? { knowledgeBase: entriesOf(kb) } : {}), ...(thresholds ? { thresholds } : {}), ...(coverage ? { coverage } : {}) });
      data.head = { ...data.head, metrics: scored.metrics, ...(scored.coverage ? { coverage: scored.coverage } : {}) };
    }
    // the report's own directory is rewritten as it is; another that holds a run is refused, unless --overwrite
    const target = await claimReportDir(out, { overwrite: argv.overwrite, command: 'report', inPlace });
    const written = await target.write((dir) => writeReports(data, dir, formats));
    print(`reports: ${written.join(', ')}\n`);
  },
});

/** The coverage of a knowledge base given now, read as the run read its expectations and answers: its alias file, and its floor when known. */
async function coverageBase(head: ReportHead, from: string, kb: Pick<CoverageBase, 'knowledgeBase' | 'entries'>): Promise<CoverageBase> {
  const aliasFile = head.run.rescored ? (head.run.rescored.aliases ?? undefined) : await runAliases(from);
  const floors = [head.run.rescored?.floor, head.run.engine?.floorThreshold].filter((f): f is number => typeof f === 'number');
  return { ...kb, ...(aliasFile !== undefined ? { aliases: await readAliases(aliasFile) } : {}), ...(floors.length > 0 ? { floor: Math.max(...floors) } : {}) };
}
