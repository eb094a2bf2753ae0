import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Argv } from 'yargs';
import { readAliases } from '../../dataset/aliases.js';
import { toTrec } from '../../export/trec.js';
import { readReport } from '../../report/read.js';
import { defineCommand } from '../command.js';

const builder = (y: Argv) =>
  y
    .option('from', { type: 'string', describe: 'a report.json', demandOption: true })
    .option('format', { choices: ['trec'] as const, default: 'trec' as const, describe: 'export format' })
    .option('out', { alias: 'o', type: 'string', describe: 'directory for run.trec and qrels.trec (default: beside the report)' })
    .option('run-id', { type: 'string', default: 'answer-eval', describe: 'the TREC run tag' })
    .option('aliases', { type: 'string', describe: 'the alias file the run used (old,new sequence numbers)' });

export const exportCommand = defineCommand({
  command: 'export',
  describe: 'write a report as a TREC run and qrels, for trec_eval and other IR tools',
  builder,
  handler: async (argv) => {
    const report = await readReport(argv.from);
    const aliases = argv.aliases === undefined ? undefined : await readAliases(argv.aliases);
    const { run, qrels } = toTrec(report, argv.runId, aliases);
    const dir = argv.out ?? dirname(argv.from);
    await mkdir(dir, { recursive: true });
    const files = [join(dir, 'run.trec'), join(dir, 'qrels.trec')] as const;
    await writeFile(files[0], run);
    await writeFile(files[1], qrels);
    process.stdout.write(`wrote ${files.join(', ')}\n`);
  },
});
