/** Waiters by the signal that may cut their wait short: one listener per signal, however many wait on it. */
const waiting = new WeakMap<AbortSignal, Set<() => void>>();

function wakeOnAbort(signal: AbortSignal): Set<() => void> {
  let waiters = waiting.get(signal);
  if (waiters === undefined) {
    const set = (waiters = new Set());
    waiting.set(signal, set);
    signal.addEventListener('abort', () => {
      for (const wake of set) wake();
      set.clear();
    }, { once: true });
  }
  return waiters;
}

/**
 * Waits `ms`, or rejects with the signal's reason once it aborts. Every worker of a run waits on the same
 * signal: a listener each (as timers/promises' setTimeout adds) would pass the EventTarget's listener limit
 * and print a MaxListenersExceededWarning at -c 16.
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal === undefined) return new Promise((resolve) => setTimeout(resolve, ms));
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  const waiters = wakeOnAbort(signal);
  return new Promise((resolve, reject) => {
    const wake = () => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    };
    const timer = setTimeout(() => {
      waiters.delete(wake);
      resolve();
    }, ms);
    waiters.add(wake);
  });
}
