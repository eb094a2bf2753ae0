import { dirname, join } from 'node:path';
import type { Argv } from 'yargs';
import { readAliases } from '../../dataset/aliases.js';
import { trecQrels, trecRun } from '../../export/trec.js';
import { openReport, reportFile } from '../../report/read.js';
import { writeChunks } from '../../report/write.js';
import { ensureDir } from '../../util/out-dir.js';
import { defineCommand } from '../command.js';
import { print } from '../../job/output.js';
import { pathOption } from '../../util/path-option.js';

const builder = (y: Argv) =>
  y
    .option('from', { ...pathOption, describe: 'a report.json, or the directory a run wrote it to', demandOption: true })
    .option('format', { choices: ['trec'] as const, default: 'trec' as const, describe: 'export format' })
    .option('out', { alias: 'o', ...pathOption, describe: 'directory for run.trec and qrels.trec (default: beside the report)' })
    .option('run-id', { type: 'string', default: 'answer-eval', describe: 'the TREC run tag' })
    .option('aliases', { ...pathOption, describe: 'the alias file the run used (old,new sequence numbers)' })
    .example('answer-eval export --from reports/nightly/2026-11-25', 'run.trec and qrels.trec beside the report; then: trec_eval -m all_trec qrels.trec run.trec');

export const exportCommand = defineCommand({
  command: 'export',
  describe: 'write a report as a TREC run and qrels, for trec_eval and other IR tools',
  builder,
  handler: async (argv) => {
    const from = await reportFile(argv.from);
    const { results } = await openReport(from);
    const aliases = argv.aliases === undefined ? undefined : await readAliases(argv.aliases);
    const dir = argv.out ?? dirname(from);
    await ensureDir(dir, '--out');
    const files = [join(dir, 'run.trec'), join(dir, 'qrels.trec')] as const;
    // a question at a time: a report of any size is exported in bounded memory
    await writeChunks(files[0], trecRun(results, argv.runId));
    await writeChunks(files[1], trecQrels(results, aliases));
    print(`wrote ${files.join(', ')}\n`);
  },
});
