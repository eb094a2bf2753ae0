import { InterruptedError } from '../errors.js';
import { printError } from './output.js';

/**
 * The first SIGINT/SIGTERM stops the run gently (nothing new is sent, requests in flight get the
 * grace period, partial reports are written, exit 3). A second one exits at once: every finished
 * question is already in the journal. Once disposed, a signal has its default effect (the process ends at once).
 */
export function onInterrupt(resumeHint: string, graceMs: number): { signal: AbortSignal; dispose: () => void } {
  const controller = new AbortController();
  const handler = (name: NodeJS.Signals) => {
    if (controller.signal.aborted) {
      printError(`\nanswer-eval: second ${name}: exiting now; the journal holds every finished question (${resumeHint})\n`);
      process.exit(3);
    }
    printError(`\nanswer-eval: ${name}: stopping; waiting up to ${graceMs} ms for requests in flight (${name} again exits at once)\n`);
    controller.abort(new InterruptedError(name, resumeHint));
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  return {
    signal: controller.signal,
    dispose: () => {
      process.off('SIGINT', handler);
      process.off('SIGTERM', handler);
    },
  };
}

