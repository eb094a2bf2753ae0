import { AnswerEvalError } from '../errors.js';
import type { JobIo } from '../job/io.js';
import { outputOf } from '../job/output.js';
import { sayWhenWaiting } from '../util/bounded-read.js';
import { commands } from './commands/index.js';
import { configFor } from './config.js';
import { cliParser } from './parser.js';

/**
 * Runs one command line (`argv` without node and the script) with `io` and returns its exit code: 0, 1 a failed
 * gate, 2 a usage or input error, 3 a run that could not complete or be judged. It never ends the process: a test or
 * a program calls it in-process; src/cli/main.ts gives it the process's io and sets the exit code.
 */
export async function main(argv: readonly string[], io: JobIo): Promise<number> {
  const { print, printError } = outputOf(io);
  try {
    // a read that waits for input (a FIFO nobody writes to) says so, never hangs silently (the last main's io says it)
    sayWhenWaiting((message) => printError(`answer-eval: ${message}\n`));
    const config = await configFor(argv, commands, io.cwd);
    if (config?.said !== undefined) printError(`answer-eval: ${config.said}\n`);
    let code = 0;
    // with a callback, yargs neither prints nor ends the process: --help and --version come back as text
    const help = await new Promise<string>((resolve, reject) => {
      const parsing = cliParser([...argv], config, io, (c) => (code = c)).parseAsync([...argv], {}, (error, _, output) => (error ? reject(error) : resolve(output)));
      parsing.catch(reject);
    });
    if (help !== '') print(`${help}\n`);
    return code;
  } catch (error) {
    if (error instanceof AnswerEvalError) {
      printError(`answer-eval: ${error.message}\n`);
      return error.exitCode;
    }
    printError(`answer-eval: internal error (please report it):\n${(error as Error)?.stack ?? String(error)}\n`);
    return 3;
  }
}
