import type { Consistency } from '../model/metrics.js';
import type { GateResult } from './gates.js';

const f3 = (v: number): string => v.toFixed(3);

/** `--min-consistency X`: the share of questions whose top-1 stayed the same across their askings (run --repeat). Pure. */
export function consistencyGate(consistency: Consistency | undefined, min: number): GateResult {
  const gate = '--min-consistency';
  const value = consistency?.interval.value ?? null;
  if (value === null) {
    const why = consistency ? 'no question got a response twice' : 'no question was asked twice: run with --repeat N';
    return { gate, metric: 'consistency', threshold: min, value: null, passed: false, message: `consistency n/a (${why}) cannot meet ${gate} ${min}` };
  }
  const passed = value >= min;
  const of = `${consistency!.interval.successes}/${consistency!.interval.n}`;
  return {
    gate,
    metric: 'consistency',
    threshold: min,
    value,
    passed,
    message: passed ? `consistency ${f3(value)} (${of}) >= ${gate} ${min}` : `consistency ${f3(value)} (${of}) < ${gate} ${min} (short by ${f3(min - value)})`,
  };
}
