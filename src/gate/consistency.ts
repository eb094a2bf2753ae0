import type { Consistency } from '../model/metrics.js';
import type { GateResult } from './gates.js';
import { atLeast } from './threshold.js';

/** `--min-consistency X`: the share of questions whose top-1 stayed the same across their askings (run --repeat). Pure. */
export function consistencyGate(consistency: Consistency | undefined, min: number): GateResult {
  const interval = consistency?.interval;
  const measure = { name: 'consistency', metric: 'consistency', flag: '--min-consistency', value: interval?.value ?? null, ...(interval ? { of: `${interval.successes}/${interval.n}` } : {}) };
  return atLeast(measure, min, consistency ? 'no question got a response twice' : 'no question was asked twice: run with --repeat N');
}
