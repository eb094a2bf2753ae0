import { describe, expect, it } from 'vitest';
import type { Outcome } from '../../src/model/outcome.js';
import type { QuestionResult } from '../../src/model/report.js';
import { Breaker } from '../../src/run/breaker.js';

const result = (outcome: Outcome): QuestionResult => ({ outcome, ...(outcome === 'error' ? { error: { kind: 'http', message: 'HTTP 500', status: 500 } } : {}) }) as QuestionResult;

/** The results after which a breaker of `max` stops, by their place in `outcomes`. */
function stopsAfter(max: number, outcomes: Outcome[]): number[] {
  const stops: number[] = [];
  let seen = 0;
  const breaker = new Breaker(max, () => stops.push(seen));
  for (const outcome of outcomes) {
    seen++;
    breaker.see(result(outcome));
  }
  return stops;
}

describe('the circuit breaker', () => {
  it('stops once, at the max-th error in a row; an answer in between starts the count again', () => {
    expect(stopsAfter(3, ['error', 'error', 'correct', 'error', 'wrong', 'error', 'error', 'error', 'error'])).toEqual([8]);
  });

  it("a skipped turn neither breaks a streak of errors nor adds to it; 0 never stops", () => {
    expect(stopsAfter(2, ['error', 'skipped', 'skipped', 'error'])).toEqual([4]);
    expect(stopsAfter(0, Array<Outcome>(50).fill('error'))).toEqual([]);
  });

  it('says why, quoting the last error', () => {
    const reasons: Error[] = [];
    new Breaker(1, (e) => reasons.push(e)).see(result('error'));
    expect(reasons.map((e) => [e.name, e.message])).toEqual([
      ['RunAbortedError', 'circuit breaker: 1 questions in a row ended in error (the last: HTTP 500); stopped instead of hammering the service (--max-consecutive-errors)'],
    ]);
  });
});
