/** What waits on each signal: one listener per signal, however many wait on it. */
const waiting = new WeakMap<AbortSignal, Set<(reason: unknown) => void>>();

/**
 * The callbacks waiting on `signal`, each told its reason once it aborts. Every worker of a run waits on the same
 * signals (a backoff's sleep, a request in flight): a listener each would pass the EventTarget's listener limit and
 * print a MaxListenersExceededWarning at -c 16. Add a callback while its wait may be cut short, delete it once over.
 */
export function abortWaiters(signal: AbortSignal): Set<(reason: unknown) => void> {
  let waiters = waiting.get(signal);
  if (waiters === undefined) {
    const set = (waiters = new Set());
    waiting.set(signal, set);
    signal.addEventListener('abort', () => {
      for (const wake of set) wake(signal.reason);
      set.clear();
    }, { once: true });
  }
  return waiters;
}
