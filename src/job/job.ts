import { AnswerEvalError } from '../errors.js';
import { jobIo, withIo, type JobIo } from './io.js';
import { printError } from './output.js';

/** What every job ends with. */
export interface JobResult {
  /** 0; 1 a failed gate; 2 a usage or input error; 3 a run that could not complete, measured too little, or cannot be judged. */
  exitCode: number;
}

/**
 * Runs a job's body with `io` (default: the io it runs in, the process's outside any) and returns `result` with its
 * exit code: an AnswerEvalError (a user's mistake, a failed gate, a stopped run) is said on stderr, as the CLI says
 * it, and gives its code; any other error is answer-eval's own and passes through.
 */
export async function job<R extends JobResult>(io: JobIo | undefined, result: R, body: () => Promise<void>): Promise<R> {
  return withIo(io ?? jobIo(), async () => {
    try {
      await body();
    } catch (error) {
      if (!(error instanceof AnswerEvalError)) throw error;
      printError(`answer-eval: ${error.message}\n`);
      result.exitCode = error.exitCode;
    }
    return result;
  });
}
