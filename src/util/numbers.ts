import { ConfigError } from '../errors.js';

/** What a numeric flag accepts, and how a message says it. */
export interface NumberRule {
  /** e.g. `a whole number >= 1`: the message reads `--flag must be <says>, got <typed>`. */
  says: string;
  accepts: (n: number) => boolean;
  /** The same bounds for a JSON Schema (an editor's completion of the config file); `accepts` decides. */
  bounds?: NumberBounds;
}

/** A rule's bounds as JSON Schema states them. */
export interface NumberBounds {
  integer?: boolean;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
}

export const WHOLE_AT_LEAST_1: NumberRule = { says: 'a whole number >= 1', accepts: (n) => Number.isInteger(n) && n >= 1, bounds: { integer: true, minimum: 1 } };
export const WHOLE_AT_LEAST_0: NumberRule = { says: 'a whole number >= 0', accepts: (n) => Number.isInteger(n) && n >= 0, bounds: { integer: true, minimum: 0 } };
export const WHOLE: NumberRule = { says: 'a whole number', accepts: (n) => Number.isInteger(n), bounds: { integer: true } };
export const ABOVE_0: NumberRule = { says: 'a number > 0', accepts: (n) => n > 0 && Number.isFinite(n), bounds: { exclusiveMinimum: 0 } };
export const AT_LEAST_0: NumberRule = { says: 'a number >= 0', accepts: (n) => n >= 0 && Number.isFinite(n), bounds: { minimum: 0 } };
export const SHARE: NumberRule = { says: 'a share between 0 and 1', accepts: (n) => n >= 0 && n <= 1, bounds: { minimum: 0, maximum: 1 } };
export const OPEN_SHARE: NumberRule = { says: 'between 0 and 1 (exclusive)', accepts: (n) => n > 0 && n < 1, bounds: { exclusiveMinimum: 0, exclusiveMaximum: 1 } };
export const SCORE: NumberRule = { says: 'a score between 0 and 100', accepts: (n) => n >= 0 && n <= 100, bounds: { minimum: 0, maximum: 100 } };
export const FINITE: NumberRule = { says: 'a number', accepts: (n) => Number.isFinite(n), bounds: {} };
/** The longest wait a Node timer takes (2^31 - 1 ms, 24.8 days); a longer one fires at once, with a warning. */
const LONGEST_TIMER_MS = 2 ** 31 - 1;
export const MILLISECONDS: NumberRule = { says: `a whole number of ms from 1 to ${LONGEST_TIMER_MS}`, accepts: (n) => Number.isInteger(n) && n >= 1 && n <= LONGEST_TIMER_MS, bounds: { integer: true, minimum: 1, maximum: LONGEST_TIMER_MS } };
export const MILLISECONDS_0: NumberRule = { says: `a whole number of ms from 0 to ${LONGEST_TIMER_MS}`, accepts: (n) => Number.isInteger(n) && n >= 0 && n <= LONGEST_TIMER_MS, bounds: { integer: true, minimum: 0, maximum: LONGEST_TIMER_MS } };
/** Requests per second: the wait between two, 1000 / rps ms, must be a timer's. */
export const RATE: NumberRule = { says: 'a number >= 0.000001 (one request every 11.6 days)', accepts: (n) => n >= 1e-6 && Number.isFinite(n), bounds: { minimum: 1e-6 } };
/** Bootstrap resamples: each is a pass over the questions; past this many the intervals no longer move. */
export const RESAMPLES: NumberRule = { says: 'a whole number from 1 to 100000', accepts: (n) => Number.isInteger(n) && n >= 1 && n <= 100_000, bounds: { integer: true, minimum: 1, maximum: 100_000 } };
export const POINTS: NumberRule = { says: 'points between 0 and 100', accepts: (n) => n >= 0 && n <= 100, bounds: { minimum: 0, maximum: 100 } };

/** The value as the user typed it: a number as is, anything else quoted (`"abc"`). */
const typed = (value: unknown): string => (typeof value === 'number' ? String(value) : JSON.stringify(Array.isArray(value) ? value.join(' ') : String(value)));

// yargs re-throws a coerce error as its own YError with the same message: these are the messages to say as they are
const thrown = new Set<string>();

/** True when `message` is one a numberArg threw (so the CLI says it as a configuration error, not a usage one). */
export const isNumberArgMessage = (message: string): boolean => thrown.has(message);

/**
 * A numeric yargs option (`--flag` needs its value), checked by numberArg: spread it into the option's settings. No
 * yargs `type`, which would turn "abc" into NaN before anything could name it.
 */
export const numberOption = (flag: string, rule: NumberRule) => ({ requiresArg: true, coerce: numberArg(`--${flag}`, rule) });

const rules = new WeakMap<object, NumberRule>();

/** The rule of a yargs `coerce` made by numberArg (a numeric option, as the config schema reads it); undefined for any other. */
export const ruleOf = (coerce: unknown): NumberRule | undefined => (typeof coerce === 'function' ? rules.get(coerce) : undefined);

/**
 * A yargs `coerce` for a numeric flag: takes the text as typed (the option has no yargs `type`, which would turn
 * `abc` into NaN first) and returns the number, or throws a ConfigError naming the flag, the rule and what was
 * typed: `--concurrency must be a whole number >= 1, got "abc"`.
 */
export function numberArg(flag: string, rule: NumberRule): (value: unknown) => number {
  const coerce = (value: unknown): number => {
    const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value.trim()) : Number.NaN;
    if (rule.accepts(n)) return n;
    const error = new ConfigError(`${flag} must be ${rule.says}, got ${typed(value)}`);
    thrown.add(error.message);
    throw error;
  };
  rules.set(coerce, rule);
  return coerce;
}

