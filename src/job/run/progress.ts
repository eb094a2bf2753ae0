import { formatProgress, progressBar, ProgressTracker, type RunEvent } from '../../run/progress.js';
import { oneLine } from '../../util/terminal.js';
import type { TextSink } from '../io.js';
import type { Output } from '../output.js';

/** Plain lines without a TTY (CI logs): one every this many ms. */
export const PLAIN_INTERVAL_MS = 5_000;
const TTY_INTERVAL_MS = 200;

export interface ProgressRenderer {
  onEvent: (event: RunEvent) => void;
  /** Stops the timer and clears the live line, so the summary starts on a clean line. */
  stop: () => void;
}

/**
 * Renders run events on stderr: on a TTY a live single line redrawn in place; otherwise one plain
 * line every few seconds. Events only count; the timer draws, so a fast run costs no output per question.
 * `stream` (stderr) says whether it is a TTY and how wide; the lines go out through src/job/output.ts.
 */
export function renderProgress({ printError, redraw, clearLine }: Output, stream: TextSink, quiet: boolean): ProgressRenderer {
  if (quiet) return { onEvent: () => {}, stop: () => {} };
  const tracker = new ProgressTracker(performance.now());
  const tty = stream.isTTY === true;
  const draw = () => {
    const snap = tracker.snapshot(performance.now());
    // the line may quote an error message from the service: one line, made safe
    const text = oneLine(formatProgress(snap));
    if (tty) redraw(`${progressBar(snap.done, snap.total)} ${text}`.slice(0, Math.max(20, (stream.columns || 100) - 1)));
    else printError(`progress: ${text}\n`);
  };
  const timer = setInterval(draw, tty ? TTY_INTERVAL_MS : PLAIN_INTERVAL_MS).unref();
  return {
    onEvent: (event) => tracker.apply(event, performance.now()),
    stop: () => {
      clearInterval(timer);
      if (tty) clearLine();
    },
  };
}
