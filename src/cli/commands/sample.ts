import type { Argv } from 'yargs';
import { DEFAULT_SEED, DEFAULT_SIZE, NEAR_REPEAT_SIMILARITY } from '../../sample/options.js';
import { numberOption, WHOLE_AT_LEAST_1, type NumberRule } from '../../util/numbers.js';
import { pathOption } from '../../util/path-option.js';
import { defineCommand } from '../command.js';

const SIMILARITY: NumberRule = { says: 'a similarity above 0 and at most 1 (1: exact repeats only)', accepts: (x) => x > 0 && x <= 1, bounds: { exclusiveMinimum: 0, maximum: 1 } };
/** The seed is taken as 32 bits (mulberry32): a larger one would draw as another does. */
const SEED: NumberRule = { says: 'a whole number from 0 to 4294967295', accepts: (x) => Number.isInteger(x) && x >= 0 && x <= 0xffffffff, bounds: { integer: true, minimum: 0, maximum: 0xffffffff } };

const builder = (y: Argv) =>
  y
    .positional('log', { ...pathOption, demandOption: true, describe: 'the log of questions asked: CSV (with a header) or JSONL, e.g. an export of the service\'s log' })
    .option('out', { alias: 'o', ...pathOption, demandOption: true, describe: 'the question set to write, .csv or .jsonl (its summary goes beside it: OUT.sample.json)' })
    .option('size', { alias: 'n', ...numberOption('size', WHOLE_AT_LEAST_1), default: DEFAULT_SIZE, describe: 'how many questions to draw: the most asked half, then the other half uniformly from the rest' })
    .option('seed', { ...numberOption('seed', SEED), default: DEFAULT_SEED, describe: 'the seed of the draw: the same log and seed give the same set, byte for byte' })
    .option('stratify', { type: 'string', describe: 'draw from each value of this column (e.g. language) in proportion to how often its questions were asked' })
    .option('question-column', { type: 'string', describe: 'the column (JSONL key) of the question, when it is none of question, text, query, utterance, message, q, ...' })
    .option('language-column', { type: 'string', describe: 'the column of the language (default: language, lang, locale, ... when there is one)' })
    .option('timestamp-column', { type: 'string', describe: 'the column of the time asked (default: timestamp, time, date, created_at, ... when there is one)' })
    .option('user-column', { type: 'string', describe: 'the column of the user, to count how many users asked each question (default: user, user_id, session_id, ... when there is one); never written' })
    .option('language', { type: 'string', describe: 'the language (ISO 639-1) of rows that do not give one' })
    .option('encoding', { type: 'string', describe: 'the log\'s encoding when it is not UTF-8: latin1, windows-1252, utf-16le, ... (default: UTF-8, or UTF-16 by its BOM)' })
    .option('similarity', { ...numberOption('similarity', SIMILARITY), default: NEAR_REPEAT_SIMILARITY, describe: 'fold questions whose character 3-grams are this similar (Jaccard); 1: exact repeats only' })
    .option('keep-pii', { type: 'boolean', default: false, describe: 'write e-mail addresses, phone, card and IBAN numbers and long numbers as they are (by default each is replaced by [email], [phone], ...)' })
    .option('overwrite', { type: 'boolean', default: false, describe: 'replace --out and its summary if they exist' })
    .example('answer-eval sample logs/questions.csv -o datasets/from-log.csv', '200 questions: the 100 most asked and 100 from the long tail, personal data scrubbed')
    .example('answer-eval sample export.jsonl -o sample.jsonl -n 500 --stratify language', '500 questions, each language in proportion to its traffic')
    .example('answer-eval sample log.csv -o set.csv --question-column "Customer text" --encoding latin1 --seed 7', 'a Latin-1 log whose question column has a name of its own')
    .epilogue(
      'Repeats are folded (case, spacing, punctuation, accents where the language allows), then near-repeats (character 3-gram similarity); ' +
        'each question drawn is written as it was asked most often, with a stable id (q-<hash of its folded text>), how many times it was asked and its first lines. ' +
        'The expectation columns are left empty, for labeling. See docs/datasets.md, "From a log to a question set".',
    );

export const sampleCommand = defineCommand({
  command: 'sample <log>',
  describe: 'draw a question set from a log of questions asked: repeats folded, personal data scrubbed, reproducible',
  builder,
  handler: async (argv, io) =>
    (await import('../../job/sample.js')).sample(
      {
        log: argv.log,
        out: argv.out,
        size: argv.size,
        seed: argv.seed,
        encoding: argv.encoding,
        columns: {
          ...(argv.questionColumn !== undefined ? { question: argv.questionColumn } : {}),
          ...(argv.languageColumn !== undefined ? { language: argv.languageColumn } : {}),
          ...(argv.timestampColumn !== undefined ? { timestamp: argv.timestampColumn } : {}),
          ...(argv.userColumn !== undefined ? { user: argv.userColumn } : {}),
          ...(argv.stratify !== undefined ? { stratify: argv.stratify } : {}),
        },
        language: argv.language,
        keepPii: argv.keepPii,
        similarity: argv.similarity,
        overwrite: argv.overwrite,
      },
      io,
    ),
});
