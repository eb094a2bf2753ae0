import { RunAbortedError } from '../errors.js';

/**
 * The first SIGINT/SIGTERM stops the run gently (nothing new is sent, requests in flight get the
 * grace period, partial reports are written, exit 3). A second one exits at once: every finished
 * question is already in the journal.
 */
export function onInterrupt(resumeHint: string, graceMs: number): { signal: AbortSignal; dispose: () => void } {
  const controller = new AbortController();
  const handler = (name: NodeJS.Signals) => {
    if (controller.signal.aborted) {
      process.stderr.write(`\nanswer-eval: second ${name}: exiting now; the journal holds every finished question (${resumeHint})\n`);
      process.exit(3);
    }
    process.stderr.write(`\nanswer-eval: ${name}: stopping; waiting up to ${graceMs} ms for requests in flight (${name} again exits at once)\n`);
    controller.abort(new RunAbortedError(`interrupted by ${name}; ${resumeHint}`));
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

