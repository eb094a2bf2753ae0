#!/usr/bin/env node
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { AnswerEvalError, ConfigError } from '../errors.js';
import { sayWhenWaiting } from '../util/bounded-read.js';
import { isNumberArgMessage } from '../util/numbers.js';
import { TOOL_VERSION } from '../version.js';
import { commands } from './commands/index.js';
import { EXIT_CODES_HELP } from './exit-codes.js';
import { datasetHint, optionNamesOf, unknownOptionMessage } from './suggest.js';
import { isDatasetName } from '../dataset/source.js';
import { printError } from './output.js';
import { configFor, configOptions } from './config.js';

/** The only place that decides the process exit code. */
export async function main(argv: string[]): Promise<void> {
  // a read that waits for input (a FIFO nobody writes to) says so, never hangs silently
  sayWhenWaiting((message) => printError(`answer-eval: ${message}\n`));
  const config = await configFor(argv, commands, process.cwd());
  if (config?.said !== undefined) printError(`answer-eval: ${config.said}\n`);
  let cli = configOptions(yargs(argv))
    .scriptName('answer-eval')
    .version(TOOL_VERSION)
    .strict()
    .demandCommand(1, 'name a command: answer-eval <command> --help')
    .recommendCommands()
    .example('answer-eval run', 'the sample questions against the embedded engine; reports in reports/<timestamp>/')
    .example('answer-eval run -d faq.csv --base-url https://answers.example.com --agent support', 'a question set against a service (agent code in ANSWER_AGENT_CODE)')
    .example('answer-eval compare main/report.json reports/pr-17 --fail-on regression', 'gate a pull request on a baseline')
    .example('answer-eval view', 'every run under reports/ on a local web page')
    .epilogue(`Options can be kept in answer-eval.config.json (--config FILE, --profile NAME): see the README.\n\n${EXIT_CODES_HELP}`)
    .wrap(Math.min(110, process.stdout.columns || 100))
    .fail((msg, err) => {
      if (err instanceof AnswerEvalError) throw err;
      if (err && isNumberArgMessage(err.message)) throw new ConfigError(err.message);
      if (err && err.name !== 'YError') throw err;
      throw usageError(msg ?? err?.message ?? 'usage error', argv);
    });
  if (config !== undefined) cli = cli.config(config.values);
  for (const command of commands) cli = cli.command(command);
  await cli.parseAsync();
}

/** A usage error (exit 2) pointing at the command's help; an unknown option names the nearest known one. */
function usageError(message: string, argv: readonly string[]): AnswerEvalError {
  const name = argv.find((t) => !t.startsWith('-'));
  const command = commands.find((c) => String(c.command).split(' ')[0] === name);
  const guess = /^Did you mean (\S+)\?$/.exec(message)?.[1]; // yargs' recommendCommands
  const unknown =
    command === undefined ? (guess === undefined ? undefined : `unknown command "${name}" (did you mean ${guess}?)`) : unknownOptionMessage(message, argv, optionNamesOf(command));
  // `validate faq.csv`: yargs misses --dataset before it sees the stray file
  const stray = (t: string, i: number): boolean => isDatasetName(t) && !t.startsWith('-') && !(argv[i - 1] ?? '').startsWith('-');
  const file = message === 'Missing required argument: dataset' ? argv.find((t, i) => i > argv.indexOf(name!) && stray(t, i)) : undefined;
  return new AnswerEvalError(`${unknown ?? message}${datasetHint(file)}\nSee answer-eval ${command === undefined ? '' : `${name} `}--help.`, 'USAGE', 2);
}

main(hideBin(process.argv)).catch((error: unknown) => {
  if (error instanceof AnswerEvalError) {
    printError(`answer-eval: ${error.message}\n`);
    process.exitCode = error.exitCode;
  } else {
    printError(`answer-eval: internal error (please report it):\n${(error as Error)?.stack ?? String(error)}\n`);
    process.exitCode = 3;
  }
});
