import { InterruptedError } from '../errors.js';
import type { JobContext } from './job.js';

/**
 * The first SIGINT/SIGTERM (or the io's signal aborted) stops the run gently (nothing new is sent, requests in flight
 * get the grace period, partial reports are written, exit 3). A second signal exits at once: every finished question
 * is already in the journal. Once disposed, a signal has its default effect (the process ends at once).
 */
export function onInterrupt({ io, out }: JobContext, resumeHint: string, graceMs: number): { signal: AbortSignal; dispose: () => void } {
  const controller = new AbortController();
  const handler = (name: NodeJS.Signals) => {
    if (controller.signal.aborted) {
      out.printError(`\nanswer-eval: second ${name}: exiting now; the journal holds every finished question (${resumeHint})\n`);
      io.interrupts?.exit(3);
      return;
    }
    out.printError(`\nanswer-eval: ${name}: stopping; waiting up to ${graceMs} ms for requests in flight (${name} again exits at once)\n`);
    controller.abort(new InterruptedError(name, resumeHint));
  };
  const stopListening = io.interrupts?.listen(handler);
  const onAbort = (): void => handler('SIGINT');
  if (io.signal?.aborted) onAbort();
  else io.signal?.addEventListener('abort', onAbort, { once: true });
  return {
    signal: controller.signal,
    dispose: () => {
      stopListening?.();
      io.signal?.removeEventListener('abort', onAbort);
    },
  };
}

/** Resolves at the first SIGINT/SIGTERM, or when the io's signal is aborted: a server (serve, view, label) stops then. */
export function untilStopped({ io }: JobContext): Promise<void> {
  return new Promise<void>((resolve) => {
    const stop = (): void => {
      stopListening?.();
      io.signal?.removeEventListener('abort', stop);
      resolve();
    };
    const stopListening = io.interrupts?.listen(stop);
    if (io.signal?.aborted) stop();
    else io.signal?.addEventListener('abort', stop, { once: true });
  });
}
