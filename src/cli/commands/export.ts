import type { Argv } from 'yargs';
import { defineCommand } from '../command.js';
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
  handler: async (argv, io) => (await import('../../job/export.js')).exportTrec(argv, io),
});
