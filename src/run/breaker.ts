import { CIRCUIT_BREAKER } from '../model/stop.js';
import { OUTCOME_CLASSES } from '../model/outcome.js';
import type { QuestionResult } from '../model/report.js';
import { RunAbortedError } from '../errors.js';

/**
 * The circuit breaker (--max-consecutive-errors): stops the run once `max` questions in a row ended in error, instead
 * of hammering a service that is down; 0 never stops it.
 */
export class Breaker {
  #streak = 0;

  constructor(
    private readonly max: number,
    private readonly stop: (reason: Error) => void,
  ) {}

  /** Counts a result in the streak of errors. */
  see(result: QuestionResult): void {
    const error = result.outcome === 'error';
    // a skipped turn was not asked: it neither breaks a streak of errors nor adds to it
    if (error || OUTCOME_CLASSES[result.outcome].responded) this.#streak = error ? this.#streak + 1 : 0;
    if (this.max > 0 && this.#streak === this.max) {
      this.stop(new RunAbortedError(
        `${CIRCUIT_BREAKER}: ${this.#streak} questions in a row ended in error (the last: ${result.error?.message ?? 'error'}); ` +
          'stopped instead of hammering the service (--max-consecutive-errors)',
      ));
    }
  }
}
