import { AsyncLocalStorage } from 'node:async_hooks';

/** Where a job's text goes: a stream of the process, or a buffer a program or a test collects. */
export interface TextSink {
  write(text: string): unknown;
  /** A terminal: progress is one line redrawn in place. */
  isTTY?: boolean;
  /** Its width, for help text and the progress line. */
  columns?: number;
}

/** The process's SIGINT and SIGTERM, for a front end that has them (the CLI): the first stops a run gently, a second ends the process. */
export interface Interrupts {
  /** Calls `handler` on each signal until the function returned is called; after that a signal has its default effect. */
  listen(handler: (signal: NodeJS.Signals) => void): () => void;
  /** Ends the process at once with this code (a second signal: the journal holds every finished question). */
  exit(code: number): never;
}

/**
 * Everything a job takes from the world outside it. The CLI passes the process's; a program or a test its own, and
 * gets exactly what the CLI does.
 */
export interface JobIo {
  stdout: TextSink;
  stderr: TextSink;
  /** The environment: ANSWER_AGENT_CODE, GITHUB_STEP_SUMMARY, GITHUB_ACTIONS, the shard variables, CI. */
  env: Readonly<Record<string, string | undefined>>;
  /** Where relative paths are, the config file is looked for and reports/<timestamp> is made. */
  cwd: string;
  /** Aborted: a run stops gently (nothing new is sent, the reports are written, exit 3); a server stops. */
  signal?: AbortSignal | undefined;
  /** The process's signals, for the CLI (see Interrupts); a program stops a job with `signal`. */
  interrupts?: Interrupts | undefined;
}

interface Job {
  io: JobIo;
  /** What is undone when the job ends (a lock released, an empty directory removed), in the order it was set. */
  atEnd: (() => void)[];
}

const current = new AsyncLocalStorage<Job>();

const endJob = (job: Job): void => {
  for (const f of job.atEnd.splice(0)) {
    try {
      f();
    } catch {
      /* best effort, as at the process's exit */
    }
  }
};

/**
 * Runs `f` as a job with `io`: everything it prints goes to io's streams (src/job/output.ts), however deep and however
 * async, and what it set to be undone at its end (atJobEnd) is undone when it ends, or when the process exits first.
 */
export async function withIo<T>(io: JobIo, f: () => Promise<T>): Promise<T> {
  const job: Job = { io, atEnd: [] };
  const onExit = (): void => endJob(job);
  process.once('exit', onExit);
  try {
    return await current.run(job, f);
  } finally {
    process.off('exit', onExit);
    endJob(job);
  }
}

/** Sets `f` (synchronous, best effort) to run when the job ends, or the process exits; outside a job, at the process's exit. */
export function atJobEnd(f: () => void): void {
  const job = current.getStore();
  if (job) job.atEnd.push(f);
  else process.once('exit', f);
}

/** The io of the job this code runs in; outside any job, the process's streams. */
export const currentIo = (): Pick<JobIo, 'stdout' | 'stderr'> => current.getStore()?.io ?? { stdout: process.stdout, stderr: process.stderr };

/** The whole io of the job this code runs in; outside any job, the process's own. */
export const jobIo = (): JobIo => current.getStore()?.io ?? { stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd() };
