import type { Secrets } from '../client/secrets/secrets.js';
import type { RunEvent } from './progress.js';
import { asStopReason, maskedError } from './stop-reasons.js';

/**
 * How a run stops early. `stop` (the caller's signal, the circuit breaker, a journal that cannot be written, a dataset
 * that changed) drains it: nothing more is sent, and the progress line says why; the requests in flight get the grace
 * period, then are cancelled. The first reason wins, its secrets masked.
 */
export class Stopping {
  readonly #drain = new AbortController();
  readonly #cancel = new AbortController();
  #graceTimer: NodeJS.Timeout | undefined;
  #outer: { signal: AbortSignal; listener: () => void } | undefined;

  constructor(private readonly secrets: Secrets) {}

  /** Aborted once the run stops sending. */
  get draining(): AbortSignal {
    return this.#drain.signal;
  }

  /** Aborted once the grace period ran out: requests still in flight are given up. */
  get cancelled(): AbortSignal {
    return this.#cancel.signal;
  }

  readonly stop = (reason: Error): void => {
    if (!this.#drain.signal.aborted) this.#drain.abort(maskedError(reason, this.secrets)); // the progress line says why
  };

  /** From now on a stop is told (`stopping`) and starts the grace period of `graceMs`; `outer` aborting stops the run. */
  watch(outer: AbortSignal | undefined, graceMs: number, emit: ((event: RunEvent) => void) | undefined): void {
    const drain = this.#drain.signal;
    drain.addEventListener('abort', () => {
      emit?.({ type: 'stopping', reason: String((drain.reason as Error)?.message ?? drain.reason) });
      this.#graceTimer = setTimeout(() => this.#cancel.abort(drain.reason), graceMs).unref();
    }, { once: true });
    if (outer === undefined) return;
    const listener = (): void => this.stop(asStopReason(outer.reason));
    if (outer.aborted) listener();
    outer.addEventListener('abort', listener, { once: true });
    this.#outer = { signal: outer, listener };
  }

  /** The asking is over: no grace timer left, no listener on the outer signal. */
  dispose(): void {
    clearTimeout(this.#graceTimer);
    this.#outer?.signal.removeEventListener('abort', this.#outer.listener);
  }
}
