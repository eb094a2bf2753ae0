import type { Argv } from 'yargs';
import { ConfigError } from '../errors.js';
import { AT_LEAST_0, numberArg, OPEN_SHARE, SHARE, WHOLE, WHOLE_AT_LEAST_0, WHOLE_AT_LEAST_1 } from '../util/numbers.js';
import { FAIL_ON, type FailOn, type QualityGates, type RegressionGates } from './gates.js';

const RATE_FLAGS = ['min-accuracy', 'min-answerable-accuracy', 'max-error-rate', 'max-fallback-missed-rate'] as const;

// Numeric flags have no yargs `type` (it would turn "abc" into NaN): numberArg reads what was typed and names it.
const share = (flag: string) => ({ requiresArg: true, coerce: numberArg(`--${flag}`, SHARE) });

/** The quality and regression gate flags, shared by `run` and `compare`. */
export const gateOptions = <T>(y: Argv<T>) =>
  y
    .option('min-accuracy', { ...share('min-accuracy'), group: 'Gates:', describe: 'fail (exit 1) when top1Accuracy is below this share (0..1)' })
    .option('min-answerable-accuracy', { ...share('min-answerable-accuracy'), group: 'Gates:', describe: 'fail when answerableAccuracy is below this share (0..1)' })
    .option('max-error-rate', { ...share('max-error-rate'), group: 'Gates:', describe: 'fail when the share of questions ending in error is above this (0..1)' })
    .option('max-fallback-missed-rate', {
      ...share('max-fallback-missed-rate'),
      group: 'Gates:',
      describe: 'fail when fallback_missed / (expect=fallback questions without error) is above this (0..1)',
    })
    .option('fail-on', { choices: FAIL_ON, group: 'Gates:', describe: 'regression: any broken question, or conversation broken to failed; significant-regression: McNemar p < --alpha and accuracy down' })
    .option('alpha', { requiresArg: true, coerce: numberArg('--alpha', OPEN_SHARE), default: 0.05, group: 'Gates:', describe: 'significance level for --fail-on significant-regression (0..1, exclusive)' })
    .option('max-broken', { requiresArg: true, coerce: numberArg('--max-broken', WHOLE_AT_LEAST_0), group: 'Gates:', describe: 'fail when more questions broke than this (a whole number)' })
    .option('score-epsilon', { requiresArg: true, coerce: numberArg('--score-epsilon', AT_LEAST_0), default: 1e-6, group: 'Compare:', describe: 'a top-1 score change larger than this is listed as score drift' })
    .option('resamples', { requiresArg: true, coerce: numberArg('--resamples', WHOLE_AT_LEAST_1), default: 2000, group: 'Compare:', describe: 'paired bootstrap resamples for the 95% intervals' })
    .option('seed', { requiresArg: true, coerce: numberArg('--seed', WHOLE), default: 1, group: 'Compare:', describe: 'bootstrap PRNG seed (same seed, same intervals)' });

interface GateArgs {
  minAccuracy?: number | undefined;
  minAnswerableAccuracy?: number | undefined;
  maxErrorRate?: number | undefined;
  maxFallbackMissedRate?: number | undefined;
  failOn?: string | undefined;
  alpha?: number | undefined;
  maxBroken?: number | undefined;
  scoreEpsilon?: number | undefined;
  resamples?: number | undefined;
  seed?: number | undefined;
}

/** Validates the gate flags (a ConfigError, exit 2, names the flag and the value). */
export function checkGateArgs(argv: Record<string, unknown>): true {
  for (const flag of RATE_FLAGS) {
    const v = argv[flag];
    if (v !== undefined && (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v > 1)) throw new ConfigError(`--${flag} must be a share between 0 and 1, got ${String(v)}`);
  }
  const alpha = argv['alpha'];
  if (alpha !== undefined && (typeof alpha !== 'number' || !(alpha > 0 && alpha < 1))) throw new ConfigError(`--alpha must be between 0 and 1 (exclusive), got ${String(alpha)}`);
  const maxBroken = argv['max-broken'];
  if (maxBroken !== undefined && (typeof maxBroken !== 'number' || !Number.isInteger(maxBroken) || maxBroken < 0)) throw new ConfigError(`--max-broken must be a whole number >= 0, got ${String(maxBroken)}`);
  const resamples = argv['resamples'];
  if (resamples !== undefined && (typeof resamples !== 'number' || !Number.isInteger(resamples) || resamples < 1)) throw new ConfigError(`--resamples must be a whole number >= 1, got ${String(resamples)}`);
  const seed = argv['seed'];
  if (seed !== undefined && (typeof seed !== 'number' || !Number.isInteger(seed))) throw new ConfigError(`--seed must be a whole number, got ${String(seed)}`);
  const eps = argv['score-epsilon'];
  if (eps !== undefined && (typeof eps !== 'number' || !Number.isFinite(eps) || eps < 0)) throw new ConfigError(`--score-epsilon must be a number >= 0, got ${String(eps)}`);
  return true;
}

export const qualityGatesOf = (a: GateArgs): QualityGates => ({
  ...(a.minAccuracy !== undefined ? { minAccuracy: a.minAccuracy } : {}),
  ...(a.minAnswerableAccuracy !== undefined ? { minAnswerableAccuracy: a.minAnswerableAccuracy } : {}),
  ...(a.maxErrorRate !== undefined ? { maxErrorRate: a.maxErrorRate } : {}),
  ...(a.maxFallbackMissedRate !== undefined ? { maxFallbackMissedRate: a.maxFallbackMissedRate } : {}),
});

export const regressionGatesOf = (a: GateArgs): RegressionGates => ({
  ...(a.failOn !== undefined ? { failOn: a.failOn as FailOn } : {}),
  ...(a.alpha !== undefined ? { alpha: a.alpha } : {}),
  ...(a.maxBroken !== undefined ? { maxBroken: a.maxBroken } : {}),
});

/** True when a regression gate was asked for (it needs a baseline on `run`). */
export const wantsRegressionGates = (a: GateArgs): boolean => a.failOn !== undefined || a.maxBroken !== undefined;

export const compareSettingsOf = (a: GateArgs) => ({
  ...(a.scoreEpsilon !== undefined ? { scoreEpsilon: a.scoreEpsilon } : {}),
  ...(a.resamples !== undefined ? { resamples: a.resamples } : {}),
  ...(a.seed !== undefined ? { seed: a.seed } : {}),
});
