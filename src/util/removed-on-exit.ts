import { rmSync } from 'node:fs';

/**
 * Removes `path` (a temporary file or directory) when the process exits, and on a SIGINT or SIGTERM that nobody else
 * handles (the run's own handler comes later, stops the run gently and closes the dataset itself), after which the
 * signal ends the process as it would have. Not process.exit: it waits for a thread blocked opening a FIFO that nobody writes to, and never ends.
 * Returns what undoes it.
 */
export function removedOnExit(path: string | (() => string)): () => void {
  const remove = (): void => {
    const target = typeof path === 'string' ? path : path();
    if (target !== '') rmSync(target, { recursive: true, force: true });
  };
  const onSignal = (signal: NodeJS.Signals): void => {
    if (process.listenerCount(signal) > 1) return; // someone else stops the process gently
    remove();
    undo();
    process.kill(process.pid, signal);
  };
  const undo = (): void => {
    process.off('exit', remove);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  };
  process.once('exit', remove);
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return undo;
}
