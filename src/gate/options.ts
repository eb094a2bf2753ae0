import type { Argv } from 'yargs';
import { AT_LEAST_0, numberOption, OPEN_SHARE, RESAMPLES, SHARE, WHOLE, WHOLE_AT_LEAST_0 } from '../util/numbers.js';
import { FAIL_ON, type FailOn } from './fail-on.js';
import type { QualityGates, RegressionGates } from './gates.js';
import { pathOption } from '../util/path-option.js';

// Numeric flags have no yargs `type` (it would turn "abc" into NaN): numberArg reads what was typed and names it.
const share = (flag: string) => numberOption(flag, SHARE);

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
    .option('min-coverage', {
      ...share('min-coverage'),
      group: 'Gates:',
      describe: 'fail when the share of knowledge-base entries that some answerable question expects is below this (0..1); needs the knowledge base (the embedded engine\'s, or --kb)',
    })
    .option('fail-on', {
      choices: FAIL_ON,
      group: 'Gates:',
      describe: 'regression: any broken question, or conversation broken to failed (the pull-request gate); significant-regression: McNemar p < --alpha and accuracy down (a large set\'s complement: it cannot fail on a few broken questions)',
    })
    .option('alpha', { ...numberOption('alpha', OPEN_SHARE), default: 0.05, group: 'Gates:', describe: 'significance level for --fail-on significant-regression (0..1, exclusive)' })
    .option('max-broken', { ...numberOption('max-broken', WHOLE_AT_LEAST_0), group: 'Gates:', describe: 'fail when more questions broke than this (a whole number)' })
    .option('quarantine', {
      ...pathOption,
      requiresArg: true,
      group: 'Gates:',
      describe: 'a file of question ids known to be unstable, one a line (trend and run --repeat write quarantine.txt): one that broke is "broke, but quarantined", not a regression for --fail-on regression or --max-broken',
    })
    .option('score-epsilon', { ...numberOption('score-epsilon', AT_LEAST_0), default: 1e-6, group: 'Compare:', describe: 'a top-1 score change larger than this is listed as score drift' })
    .option('resamples', { ...numberOption('resamples', RESAMPLES), default: 2000, group: 'Compare:', describe: 'paired bootstrap resamples for the 95% intervals' })
    .option('seed', { ...numberOption('seed', WHOLE), default: 1, group: 'Compare:', describe: 'bootstrap PRNG seed (same seed, same intervals)' });

interface GateArgs {
  minAccuracy?: number | undefined;
  minAnswerableAccuracy?: number | undefined;
  maxErrorRate?: number | undefined;
  maxFallbackMissedRate?: number | undefined;
  minCoverage?: number | undefined;
  failOn?: string | undefined;
  alpha?: number | undefined;
  maxBroken?: number | undefined;
  quarantine?: string | undefined;
  scoreEpsilon?: number | undefined;
  resamples?: number | undefined;
  seed?: number | undefined;
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

/** True when a regression gate or a quarantine was asked for (it needs a baseline on `run`). */
export const wantsRegressionGates = (a: GateArgs): boolean => a.failOn !== undefined || a.maxBroken !== undefined || a.quarantine !== undefined;

export const compareSettingsOf = (a: GateArgs) => ({
  ...(a.scoreEpsilon !== undefined ? { scoreEpsilon: a.scoreEpsilon } : {}),
  ...(a.resamples !== undefined ? { resamples: a.resamples } : {}),
  ...(a.seed !== undefined ? { seed: a.seed } : {}),
});
