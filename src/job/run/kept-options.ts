import { readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ConfigError } from '../../errors.js';
import { FAIL_ON } from '../../gate/fail-on.js';
import { JsonTextError, parseJsonText, printable } from '../../util/json-lines.js';
import { AT_LEAST_0, OPEN_SHARE, POINTS, SHARE, WHOLE, WHOLE_AT_LEAST_0, WHOLE_AT_LEAST_1, type NumberRule } from '../../util/numbers.js';
import { reasonOf } from '../../util/out-dir.js';
import { writeFileThroughTemp } from '../../util/temp-file.js';

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
  minCoverage: '--min-coverage',
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

/** What each kept option must be, as its flag requires (read back, a value is checked again: the file may be damaged). */
const KEPT_RULES: Record<Kept, NumberRule> = {
  minAccuracy: SHARE,
  minAnswerableAccuracy: SHARE,
  maxErrorRate: SHARE,
  maxFallbackMissedRate: SHARE,
  minCoverage: SHARE,
  failOn: { says: `one of ${FAIL_ON.join(', ')}`, accepts: () => false },
  alpha: OPEN_SHARE,
  maxBroken: WHOLE_AT_LEAST_0,
  minConsistency: SHARE,
  minConversationPassRate: SHARE,
  baseline: { says: 'a path', accepts: () => false },
  quarantine: { says: 'a path', accepts: () => false },
  force: { says: 'true or false', accepts: () => false },
  scoreEpsilon: AT_LEAST_0,
  resamples: WHOLE_AT_LEAST_1,
  seed: WHOLE,
  oosShare: SHARE,
  keepAccuracy: POINTS,
  format: { says: 'a list of formats', accepts: () => false },
};

const keptValueOk = (key: Kept, value: unknown): boolean => {
  if (key === 'failOn') return (FAIL_ON as readonly unknown[]).includes(value);
  if (key === 'baseline' || key === 'quarantine' || key === 'format') return typeof value === 'string' && value !== '';
  if (key === 'force') return typeof value === 'boolean';
  return typeof value === 'number' && KEPT_RULES[key].accepts(value);
};

/** The kept options of a run directory, checked; undefined when it kept none. A damaged file is a ConfigError naming it. */
function readKept(dir: string): Args | undefined {
  const file = join(dir, RUN_OPTIONS_FILE);
  const damaged = (why: string, options?: ErrorOptions): ConfigError =>
    new ConfigError(`${file}: ${why}; the file is damaged: fix it, or delete it and give its options (gates, --baseline, --format) again`, options);
  let value: unknown;
  try {
    const info = statSync(file);
    if (!info.isFile()) throw damaged('not a regular file');
    if (info.size > 1024 * 1024) throw damaged('larger than 1 MiB (it holds a few options)');
    value = parseJsonText(readFileSync(file, 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    if (error instanceof JsonTextError) throw damaged(`not JSON (${error.message})`, { cause: error });
    if (error instanceof ConfigError) throw error;
    throw damaged(`cannot be read: ${reasonOf(error)}`, { cause: error });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw damaged('not a JSON object');
  const kept: Args = {};
  for (const [key, v] of Object.entries(value)) {
    if (!Object.hasOwn(KEPT, key)) throw damaged(`"${printable(key, 40)}" is no option a run keeps`);
    if (!keptValueOk(key as Kept, v)) throw damaged(`"${key}" is ${printable(JSON.stringify(v) ?? String(v), 60)}, where ${KEPT[key as Kept]} must be ${KEPT_RULES[key as Kept].says}`);
    kept[key as Kept] = v;
  }
  return kept;
}

/** Writes the kept options a run was given (the baseline's and the quarantine's paths made absolute), if any, when it starts asking. */
export function keepRunOptions(dir: string, argv: Args): void {
  const kept: Args = {};
  for (const key of Object.keys(KEPT) as Kept[]) {
    const value = argv[key];
    if (value === undefined || value === KEPT_DEFAULTS[key]) continue;
    kept[key] = key === 'baseline' || key === 'quarantine' ? resolve(String(value)) : value;
  }
  if (Object.keys(kept).length > 0) writeFileThroughTemp(join(dir, RUN_OPTIONS_FILE), `${JSON.stringify(kept, null, 2)}\n`);
}

/**
 * A resumed run takes the kept options it is not given again (a flag given now wins), in place in `argv`; returns
 * them as typed (`--min-accuracy 0.9`), to be said. A run kept none when it had none, or began before this file.
 */
export function resumeRunOptions(dir: string, argv: Args): string[] {
  const kept = readKept(dir);
  if (kept === undefined) return [];
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
