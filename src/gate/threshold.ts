import type { GateResult } from '../model/verdict.js';

/** A measured share as gates say it: three decimals. */
export const f3 = (v: number): string => v.toFixed(3);

/** The first ten ids of a list and how many more there are: `a, b, ... (3 more)`. */
export function firstIds(ids: readonly string[], count = ids.length): string {
  const shown = ids.slice(0, 10);
  return shown.join(', ') + (count > shown.length ? `, ... (${count - shown.length} more)` : '');
}

/** A measure a gate holds at a minimum: what it is called, the flag and its metric, and `of`, its count when it is a share (`12/15`). */
interface Measure {
  name: string;
  metric: string;
  flag: string;
  value: number | null;
  of?: string;
}

/**
 * A minimum: `top1Accuracy 0.812 >= --min-accuracy 0.8`, or `... < --min-accuracy 0.9 (short by 0.088)`. Nothing to
 * measure (`whenNull` says why) cannot meet it.
 */
export function atLeast({ name, metric, flag, value, of }: Measure, min: number, whenNull: string): GateResult {
  const at = { gate: flag, metric, threshold: min, value };
  if (value === null) return { ...at, passed: false, message: `${name} n/a (${whenNull}) cannot meet ${flag} ${min}` };
  const passed = value >= min;
  const measured = `${name} ${f3(value)}${of === undefined ? '' : ` (${of})`}`;
  return { ...at, passed, message: passed ? `${measured} >= ${flag} ${min}` : `${measured} < ${flag} ${min} (short by ${f3(min - value)})` };
}

/** A maximum of a share: `error rate 0.010 <= --max-error-rate 0.05`, or `... > ... (over by 0.012)`. Nothing to count passes. */
export function atMost({ name, metric, flag, value }: Measure, max: number): GateResult {
  const at = { gate: flag, metric, threshold: max, value };
  // nothing to count (e.g. no fallback question) cannot exceed a maximum
  if (value === null) return { ...at, passed: true, message: `${name} n/a (nothing to count) passes ${flag} ${max}` };
  const passed = value <= max;
  return { ...at, passed, message: passed ? `${name} ${f3(value)} <= ${flag} ${max}` : `${name} ${f3(value)} > ${flag} ${max} (over by ${f3(value - max)})` };
}

/**
 * A maximum of a count: `2 flaky questions <= --max-flaky 3`, or `5 flaky questions > --max-flaky 3 (over by 2): a, b,
 * ...`, the count said as `said` says it (passed or not), `which` naming the counted ones.
 */
export function countAtMost(flag: string, metric: string, count: number, max: number, said: (passed: boolean) => string, which: string): GateResult {
  const passed = count <= max;
  return {
    gate: flag,
    metric,
    threshold: max,
    value: count,
    passed,
    message: passed ? `${said(true)} <= ${flag} ${max}` : `${said(false)} > ${flag} ${max} (over by ${count - max}): ${which}`,
  };
}
