import { AnswerEvalError } from '../errors.js';
import { defaultIo, type JobIo } from './io.js';
import { outputOf, type Output } from './output.js';

/** What every job ends with. */
export interface JobResult {
  /** 0; 1 a failed gate; 2 a usage or input error; 3 a run that could not complete, measured too little, or cannot be judged. */
  exitCode: number;
}

/** What the steps of a job share: its io, where it prints, what is undone at its end. */
export interface JobContext {
  io: JobIo;
  out: Output;
  /** Sets `f` (synchronous, best effort) to run when the job ends, or when the process exits first; in the order set. */
  atEnd(f: () => void): void;
}

/**
 * Runs a job's body with `io` (default: the process's) and returns `result` with its exit code: an AnswerEvalError (a
 * user's mistake, a failed gate, a stopped run) is said on stderr, as the CLI says it, and gives its code; any other
 * error is answer-eval's own and passes through. What the body set to be undone at its end is undone then, or at the
 * process's exit if that comes first (a second signal).
 */
export async function job<R extends JobResult>(io: JobIo | undefined, result: R, body: (ctx: JobContext) => Promise<void>): Promise<R> {
  const ends: (() => void)[] = [];
  const end = (): void => {
    for (const f of ends.splice(0)) {
      try {
        f();
      } catch {
        /* best effort, as at the process's exit */
      }
    }
  };
  const ctx: JobContext = { io: io ?? defaultIo(), out: outputOf(io ?? defaultIo()), atEnd: (f) => ends.push(f) };
  process.once('exit', end);
  try {
    await body(ctx);
  } catch (error) {
    if (!(error instanceof AnswerEvalError)) throw error;
    ctx.out.printError(`answer-eval: ${error.message}\n`);
    result.exitCode = error.exitCode;
  } finally {
    process.off('exit', end);
    end();
  }
  return result;
}
