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
  /** Where the config file is looked for and reports/<timestamp> is made. */
  cwd: string;
  /** Aborted: a run stops gently (nothing new is sent, the reports are written, exit 3); a server stops. */
  signal?: AbortSignal | undefined;
  /** The process's signals, for the CLI (see Interrupts); a program stops a job with `signal`. */
  interrupts?: Interrupts | undefined;
  /**
   * Told when a run's memory counts more than its CPU (the CLI then keeps V8's heap tight: src/cli/heap.ts): from
   * the start of a run of LARGE_RUN questions or more, else once it has asked everything and reads its journal back.
   */
  tightenHeap?: (() => void) | undefined;
}

/** The process's streams, environment and working directory: the io of a job a program starts without one. */
export const defaultIo = (): JobIo => ({ stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd() });
