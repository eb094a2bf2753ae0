import { abortWaiters } from '../util/abort-waiters.js';

/**
 * Waits `ms`, or rejects with the signal's reason once it aborts (one listener per signal for every sleeper: see
 * abortWaiters).
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal === undefined) return new Promise((resolve) => setTimeout(resolve, ms));
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  const waiters = abortWaiters(signal);
  return new Promise((resolve, reject) => {
    const wake = (reason: unknown) => {
      clearTimeout(timer);
      reject(reason as Error);
    };
    const timer = setTimeout(() => {
      waiters.delete(wake);
      resolve();
    }, ms);
    waiters.add(wake);
  });
}
