import type { Argv } from 'yargs';
import { defineCommand } from '../command.js';
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
  handler: async (argv, io) => (await import('../../job/validate.js')).validate(argv, io),
});
