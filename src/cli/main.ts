#!/usr/bin/env node
import './heap.js';
import { hideBin } from 'yargs/helpers';
import { AnswerEvalError } from '../errors.js';
import { sayWhenWaiting } from '../util/bounded-read.js';
import { commands } from './commands/index.js';
import { printError } from './output.js';
import { configFor } from './config.js';
import { cliParser } from './parser.js';

/** The only place that decides the process exit code. */
export async function main(argv: string[]): Promise<void> {
  // a read that waits for input (a FIFO nobody writes to) says so, never hangs silently
  sayWhenWaiting((message) => printError(`answer-eval: ${message}\n`));
  const config = await configFor(argv, commands, process.cwd());
  if (config?.said !== undefined) printError(`answer-eval: ${config.said}\n`);
  await cliParser(argv, config).parseAsync();
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
