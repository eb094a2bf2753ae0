import pLimit from 'p-limit';

export interface ExecuteOptions<R> {
  /** Tasks running at once. */
  concurrency: number;
  /** Stops handing out new tasks; running ones see it through their own signal. */
  signal?: AbortSignal;
  /** Called as each task finishes, in completion order, with the item's index. */
  onResult: (result: R, index: number) => void;
}

export interface Execution {
  /** Why the run stopped early: the first error a task threw, or the abort reason. */
  stoppedBy?: unknown;
}

/**
 * Runs `task` over `items` (a stream, read only as slots free up) with at most `concurrency` at once
 * (p-limit), so a million questions never queue a million closures. Results go to `onResult` and are not
 * kept. The first task that throws stops the execution: nothing more starts, and running tasks settle.
 */
export async function execute<T, R>(
  items: AsyncIterable<T> | Iterable<T>,
  task: (item: T, index: number, signal: AbortSignal) => Promise<R>,
  options: ExecuteOptions<R>,
): Promise<Execution> {
  const limit = pLimit(options.concurrency);
  const stop = new AbortController();
  const onAbort = () => stop.abort(options.signal?.reason);
  options.signal?.addEventListener('abort', onAbort, { once: true });
  if (options.signal?.aborted) onAbort();

  let inFlight = 0;
  let wake: (() => void) | undefined; // the feeding loop, waiting for a free slot
  let stoppedBy: unknown;
  const run = (item: T, index: number) =>
    limit(async () => {
      if (stop.signal.aborted) return;
      try {
        options.onResult(await task(item, index, stop.signal), index);
      } catch (error) {
        if (stoppedBy === undefined) stoppedBy = stop.signal.aborted ? stop.signal.reason : error;
        stop.abort(error);
      }
    }).finally(() => {
      inFlight--;
      wake?.();
    });

  const slotFreed = () => new Promise<void>((resolve) => (wake = resolve));
  let index = 0;
  try {
    for await (const item of items) {
      if (stop.signal.aborted) break;
      inFlight++;
      void run(item, index++);
      while (inFlight >= options.concurrency * 2) await slotFreed();
    }
  } finally {
    while (inFlight > 0) await slotFreed();
    options.signal?.removeEventListener('abort', onAbort);
  }
  if (stoppedBy === undefined && stop.signal.aborted) stoppedBy = stop.signal.reason;
  return stoppedBy === undefined ? {} : { stoppedBy };
}
