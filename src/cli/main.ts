#!/usr/bin/env node
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { AnswerEvalError } from '../errors.js';
import { TOOL_VERSION } from '../version.js';
import { commands } from './commands/index.js';

const EXIT_CODES = `Exit codes:
  0  the run completed and every gate passed
  1  a gate failed (reports are still written)
  2  usage, configuration or dataset error (nothing was sent)
  3  the run could not complete (not authorized, unreachable, aborted)`;

/** The only place that decides the process exit code. */
export async function main(argv: string[]): Promise<void> {
  let cli = yargs(argv)
    .scriptName('answer-eval')
    .version(TOOL_VERSION)
    .strict()
    .demandCommand(1, 'name a command: answer-eval <command> --help')
    .epilogue(EXIT_CODES)
    .wrap(Math.min(110, process.stdout.columns || 100))
    .fail((msg, err) => {
      if (err) throw err;
      throw new AnswerEvalError(`${msg}\nSee answer-eval --help.`, 'USAGE', 2);
    });
  for (const command of commands) cli = cli.command(command);
  await cli.parseAsync();
}

main(hideBin(process.argv)).catch((error: unknown) => {
  if (error instanceof AnswerEvalError) {
    process.stderr.write(`answer-eval: ${error.message}\n`);
    process.exitCode = error.exitCode;
  } else {
    process.stderr.write(`answer-eval: internal error (please report it):\n${(error as Error)?.stack ?? String(error)}\n`);
    process.exitCode = 3;
  }
});
