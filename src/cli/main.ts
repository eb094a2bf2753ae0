#!/usr/bin/env node
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { AnswerEvalError } from '../errors.js';
import { TOOL_VERSION } from '../version.js';
import { commands } from './commands/index.js';
import { EXIT_CODES_HELP } from './exit-codes.js';


/** The only place that decides the process exit code. */
export async function main(argv: string[]): Promise<void> {
  let cli = yargs(argv)
    .scriptName('answer-eval')
    .version(TOOL_VERSION)
    .strict()
    .demandCommand(1, 'name a command: answer-eval <command> --help')
    .epilogue(EXIT_CODES_HELP)
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
