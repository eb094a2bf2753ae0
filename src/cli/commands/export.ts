import { readFile, mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Argv } from 'yargs';
import { readAliases } from '../../dataset/aliases.js';
import { InputError } from '../../errors.js';
import { toTrec } from '../../export/trec.js';
import { ReportSchema, type Report } from '../../report/schema.js';
import { defineCommand } from '../command.js';

const builder = (y: Argv) =>
  y
    .option('from', { type: 'string', describe: 'a report.json', demandOption: true })
    .option('format', { choices: ['trec'] as const, default: 'trec' as const, describe: 'export format' })
    .option('out', { alias: 'o', type: 'string', describe: 'directory for run.trec and qrels.trec (default: beside the report)' })
    .option('run-id', { type: 'string', default: 'answer-eval', describe: 'the TREC run tag' })
    .option('aliases', { type: 'string', describe: 'the alias file the run used (old,new sequence numbers)' });

async function readReport(path: string): Promise<Report> {
  const text = await readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new InputError([{ file: path, line: 0, message: error.code === 'ENOENT' ? 'no such file' : error.message }]);
  });
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new InputError([{ file: path, line: 0, message: `not valid JSON: ${(error as Error).message} (expected a report.json)` }]);
  }
  const parsed = ReportSchema.safeParse(json);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw new InputError([{ file: path, line: 0, message: `not a report.json: ${issue.path.join('.')}: ${issue.message}` }]);
}

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
