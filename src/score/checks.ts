import { compileCheck, describeCheck, TURN_CHECK_KEYS, TURN_CHECKS, type TurnCheckKey, type TurnCheckResults, type TurnCheckValues, type TurnReply } from '../model/turn-checks.js';
import { truncate } from '../util/text.js';

/** A turn check that failed: what it wanted, what the reply held. */
export interface FailedCheck {
  key: TurnCheckKey;
  value: string;
  actual: string | undefined;
}

export interface CheckVerdict {
  /** Which checks passed, by check (those the turn gives). */
  results: TurnCheckResults;
  /** The checks that failed, in table order. */
  failed: FailedCheck[];
}

/** Judges a turn's checks (src/model/turn-checks.ts) against a reply; undefined when the turn gives none. */
export function judgeChecks(checks: TurnCheckValues | undefined, reply: TurnReply): CheckVerdict | undefined {
  if (checks === undefined) return undefined;
  const results: TurnCheckResults = {};
  const failed: FailedCheck[] = [];
  for (const key of TURN_CHECK_KEYS) {
    const value = checks[key];
    if (value === undefined) continue;
    const actual = TURN_CHECKS[key].of(reply);
    const passed = compileCheck(key, value)(actual);
    results[key] = passed;
    if (!passed) failed.push({ key, value, actual });
  }
  return Object.keys(results).length === 0 ? undefined : { results, failed };
}

const quote = (text: string): string => `"${truncate(text, 60)}"`;

/** A failed check in words: `expected dialog none; the reply leaves it in_progress`, `expected post-processed answer "contains:again"; the reply has none`. */
export function describeFailedCheck(f: FailedCheck): string {
  const check = TURN_CHECKS[f.key];
  const got = f.actual === undefined ? 'the reply has none' : check.values === 'text' ? `the reply has ${quote(f.actual)}` : `the reply leaves it ${f.actual}`;
  return `expected ${describeCheck(f.key, f.value)}; ${got}`;
}
