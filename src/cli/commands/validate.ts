import type { Argv } from 'yargs';
import { readAliases } from '../../dataset/aliases.js';
import { readKbRefs } from '../../dataset/kb-refs.js';
import { scanDataset } from '../../dataset/read.js';
import { checkDataset } from '../../dataset/validate.js';
import { AnswerEvalError, formatProblem } from '../../errors.js';
import { defineCommand } from '../command.js';
import { plural } from '../../util/text.js';
import { print } from '../../job/output.js';
import { oneLine } from '../../util/terminal.js';
import { pathOption } from '../../util/path-option.js';

const builder = (y: Argv) =>
  y
    .option('dataset', { alias: 'd', ...pathOption, describe: 'question set, .csv or .jsonl', demandOption: true })
    .option('encoding', { type: 'string', describe: 'the dataset\'s encoding when it is not UTF-8: latin1, windows-1252, utf-16le, ... (default: UTF-8, or UTF-16 by its BOM)' })
    .option('kb', { ...pathOption, describe: 'knowledge base (.jsonl or .csv) the expectations must exist in' })
    .option('aliases', { ...pathOption, describe: 'CSV of old,new sequence numbers applied to expected_sequence' })
    .example('answer-eval validate -d faq.csv', 'every row readable and every expectation well formed, without a request')
    .example('answer-eval validate -d faq.csv --kb kb.jsonl', 'and every expected entry in the knowledge base');

export const validateCommand = defineCommand({
  command: 'validate',
  describe: 'check a question set without running it (exit 2 on an error; warnings are printed)',
  builder,
  handler: async (argv) => {
    const scan = await scanDataset(argv.dataset, { encoding: argv.encoding });
    const kb = argv.kb === undefined ? undefined : await readKbRefs(argv.kb);
    const aliases = argv.aliases === undefined ? undefined : await readAliases(argv.aliases);
    const problems = checkDataset(scan, { ...(kb ? { kb } : {}), ...(aliases ? { aliases } : {}) });
    const errors = problems.filter((p) => p.severity === 'error').length;
    const warnings = problems.length - errors;
    const lines = problems.map((p) => `${formatProblem(p, p.severity ?? 'error')}\n`);
    const turns = scan.questions.filter((q) => q.conversation).length;
    const counted = scan.conversations > 0 ? `${plural(scan.questions.length - turns, 'question')}, ${plural(scan.conversations, 'conversation')} (${plural(turns, 'turn')})` : plural(scan.questions.length, 'question');
    const kept = scan.metadata.columns.length > 0 ? `; kept as metadata: ${scan.metadata.columns.map(oneLine).join(', ')}` : '';
    print(`${lines.join('')}${scan.path}: ${counted}, ${plural(errors, 'error')}, ${plural(warnings, 'warning')}${kept}\n`);
    if (errors > 0) throw new AnswerEvalError(`${scan.path}: ${plural(errors, 'error')} (see above)`, 'INVALID_DATASET', 2);
  },
});
