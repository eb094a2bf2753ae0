import type { ArgumentsCamelCase, Argv } from 'yargs';
import type { JobIo } from '../job/io.js';
import type { JobResult } from '../job/job.js';

/**
 * A command of the CLI: its flags (a yargs builder) and a handler that maps them to a job of the library (src/job/),
 * loaded only when the command runs, and returns the job's result (or nothing: exit 0).
 */
export interface Command<A = unknown> {
  command: string;
  describe: string;
  builder: (y: Argv) => Argv<A>;
  handler: (argv: ArgumentsCamelCase<A>, io: JobIo) => Promise<JobResult | void>;
}

/** A typed command: the handler sees the options its builder declared, camel-cased. */
export const defineCommand = <A>(def: Command<A>): Command<A> => def;
