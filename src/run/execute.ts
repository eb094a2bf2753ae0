import pLimit from 'p-limit';

export interface ExecuteOptions<R> {
  /** Tasks running at once. */
  concurrency: number;
  /** Stops handing out new tasks; running ones see it through their own signal. */
  signal?: AbortSignal;
  /** Called as each task finishes, in completion order. */
  onResult?: (result: R, index: number) => void;
}

export interface Execution<R> {
  /** By input index; undefined for tasks never started or cut short. */
  results: (R | undefined)[];
  /** Why the run stopped early: the first error a task threw, or the abort reason. */
  stoppedBy?: unknown;
}

/**
 * Runs `task` over `items` with at most `concurrency` at once (p-limit). Items are handed to the limiter
 * only as slots free up, so a million questions never queue a million closures. The first task that
 * throws stops the execution: nothing more starts, and running tasks are left to settle.
 */
export async function execute<T, R>(
  items: Iterable<T>,
  task: (item: T, index: number, signal: AbortSignal) => Promise<R>,
  options: ExecuteOptions<R>,
): Promise<Execution<R>> {
  const limit = pLimit(options.concurrency);
  const stop = new AbortController();
  const onAbort = () => stop.abort(options.signal?.reason);
  options.signal?.addEventListener('abort', onAbort, { once: true });
  if (options.signal?.aborted) onAbort();

  const results: (R | undefined)[] = [];
  let inFlight = 0;
  let wake: (() => void) | undefined; // the feeding loop, waiting for a free slot
  let stoppedBy: unknown;
  const run = (item: T, index: number) =>
    limit(async () => {
      if (stop.signal.aborted) return;
      try {
        const result = await task(item, index, stop.signal);
        results[index] = result;
        options.onResult?.(result, index);
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
  for (const item of items) {
    if (stop.signal.aborted) break;
    results.length = index + 1;
    inFlight++;
    void run(item, index++);
    while (inFlight >= options.concurrency * 2) await slotFreed();
  }
  while (inFlight > 0) await slotFreed();
  options.signal?.removeEventListener('abort', onAbort);
  if (stoppedBy === undefined && stop.signal.aborted) stoppedBy = stop.signal.reason;
  return stoppedBy === undefined ? { results } : { results, stoppedBy };
}
