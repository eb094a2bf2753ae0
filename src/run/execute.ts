export interface ExecuteOptions {
  /** Tasks running at once. */
  concurrency: number;
  /** Stops handing out new tasks; running ones see it through their own signal. */
  signal?: AbortSignal;
}

export interface Execution {
  /** Why the run stopped early: the first error a task threw, or the abort reason. */
  stoppedBy?: unknown;
}

/**
 * Runs a task over each of `items` (a stream, read only as slots free up: at most `concurrency` read ahead) with at
 * most `concurrency` at once, so a million questions never queue a million closures. `tasks` makes the task once, given
 * the signal every task shares (aborted when the execution stops). A task keeps its own result (nothing is collected
 * here). The first task that throws stops the execution: nothing more starts, and running tasks settle.
 */
export async function execute<T>(
  items: AsyncIterable<T> | Iterable<T>,
  tasks: (signal: AbortSignal) => (item: T) => Promise<void>,
  options: ExecuteOptions,
): Promise<Execution> {
  const stop = new AbortController();
  const onAbort = () => stop.abort(options.signal?.reason);
  options.signal?.addEventListener('abort', onAbort, { once: true });
  if (options.signal?.aborted) onAbort();
  const task = tasks(stop.signal);

  // a slot per running task; items read ahead wait in `ready` (at most `concurrency` of them)
  const ready: T[] = [];
  let running = 0;
  let wake: (() => void) | undefined; // the feeding loop, waiting for room
  let stoppedBy: unknown;
  const fail = (error: unknown): void => {
    if (stoppedBy === undefined) stoppedBy = stop.signal.aborted ? stop.signal.reason : error;
    stop.abort(error);
  };
  const finished = (): void => {
    running--;
    if (stop.signal.aborted) ready.length = 0; // read ahead, never to start
    if (ready.length > 0) start(ready.shift()!);
    wake?.();
  };
  const start = (item: T): void => {
    running++;
    let pending: Promise<void>;
    try {
      pending = task(item);
    } catch (error) {
      fail(error);
      finished();
      return;
    }
    pending.then(
      finished,
      (error: unknown) => {
        fail(error);
        finished();
      },
    );
  };

  const room = () => new Promise<void>((resolve) => (wake = resolve));
  try {
    for await (const item of items) {
      if (stop.signal.aborted) break;
      if (running < options.concurrency) start(item);
      else ready.push(item);
      while (ready.length >= options.concurrency && !stop.signal.aborted) await room();
    }
  } finally {
    if (stop.signal.aborted) ready.length = 0; // read ahead, never to start
    while (running > 0 || (ready.length > 0 && !stop.signal.aborted)) await room();
    options.signal?.removeEventListener('abort', onAbort);
  }
  if (stoppedBy === undefined && stop.signal.aborted) stoppedBy = stop.signal.reason;
  return stoppedBy === undefined ? {} : { stoppedBy };
}
