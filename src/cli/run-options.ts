import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * The options that decide how a run is finished (its gates, --baseline, --format), kept beside its journal when it
 * starts: `run --resume DIR` finishes the run as it was meant to be, without repeating them. The journal holds what
 * decides how questions are asked; this file, what is done with the answers.
 */
export const RUN_OPTIONS_FILE = 'run-options.json';

/**
 * Each kept option with its flag: every option of the run command's Gates, Compare and Threshold advice groups, and
 * --format (test/cli/run-options.test.ts holds this table to them).
 */
export const KEPT = {
  minAccuracy: '--min-accuracy',
  minAnswerableAccuracy: '--min-answerable-accuracy',
  maxErrorRate: '--max-error-rate',
  maxFallbackMissedRate: '--max-fallback-missed-rate',
  failOn: '--fail-on',
  alpha: '--alpha',
  maxBroken: '--max-broken',
  minConsistency: '--min-consistency',
  minConversationPassRate: '--min-conversation-pass-rate',
  baseline: '--baseline',
  quarantine: '--quarantine',
  force: '--force',
  scoreEpsilon: '--score-epsilon',
  resamples: '--resamples',
  seed: '--seed',
  oosShare: '--oos-share',
  keepAccuracy: '--keep-accuracy',
  format: '--format',
} as const;
type Kept = keyof typeof KEPT;
/** The defaults of the kept options that have one: an option equal to its default counts as not given. */
export const KEPT_DEFAULTS: Partial<Record<Kept, unknown>> = { alpha: 0.05, force: false, scoreEpsilon: 1e-6, resamples: 2000, seed: 1, format: 'all' };

type Args = Partial<Record<Kept, unknown>>;

/** Writes the kept options a run was given (the baseline's and the quarantine's paths made absolute), if any, when it starts asking. */
export function keepRunOptions(dir: string, argv: Args): void {
  const kept: Args = {};
  for (const key of Object.keys(KEPT) as Kept[]) {
    const value = argv[key];
    if (value === undefined || value === KEPT_DEFAULTS[key]) continue;
    kept[key] = key === 'baseline' || key === 'quarantine' ? resolve(String(value)) : value;
  }
  if (Object.keys(kept).length > 0) writeFileSync(join(dir, RUN_OPTIONS_FILE), `${JSON.stringify(kept, null, 2)}\n`);
}

/**
 * A resumed run takes the kept options it is not given again (a flag given now wins), in place in `argv`; returns
 * them as typed (`--min-accuracy 0.9`), to be said. A run kept none when it had none, or began before this file.
 */
export function resumeRunOptions(dir: string, argv: Args): string[] {
  let kept: Args;
  try {
    kept = JSON.parse(readFileSync(join(dir, RUN_OPTIONS_FILE), 'utf8')) as Args;
  } catch {
    return [];
  }
  const given = (key: Kept): boolean => argv[key] !== undefined && argv[key] !== KEPT_DEFAULTS[key];
  // the floor's objective is one of two: one given now replaces the kept one, whichever it was
  const objective = given('oosShare') || given('keepAccuracy');
  const taken: string[] = [];
  for (const key of Object.keys(KEPT) as Kept[]) {
    if (kept[key] === undefined || given(key) || (objective && (key === 'oosShare' || key === 'keepAccuracy'))) continue;
    argv[key] = kept[key];
    taken.push(`${KEPT[key]} ${String(kept[key])}`);
  }
  return taken;
}
