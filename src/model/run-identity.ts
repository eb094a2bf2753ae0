import type { RunInfo } from './report.js';

/**
 * Whether each of `report.run.options` can change an answer. Those that cannot change only how fast questions are
 * asked, or whether one ends in error: runs differing in them alone are the same service for `trend` and shards
 * of one run for `merge` (a shard re-run more gently after 429s). A new option is a compile error until classed.
 */
const CHANGES_ANSWERS: Record<keyof RunInfo['options'], boolean> = {
  concurrency: false,
  rps: false,
  maxConsecutiveErrors: false,
  timeoutMs: false,
  retries: false,
  insecure: false,
  language: true,
  output: true,
  guest: true,
  username: true,
  forceSubscription: true,
  askForMetadata: true,
  usingRepeatingAnswers: true,
  maxTurnDelayMs: true,
};

/** Whether `report.run.options[key]` is part of a run's identity; an option this version does not know (a later version's) is. */
export const isIdentityOption = (key: string): boolean =>
  Object.hasOwn(CHANGES_ANSWERS, key) ? CHANGES_ANSWERS[key as keyof typeof CHANGES_ANSWERS] : true;

/** The options of a run that are part of its identity (see `isIdentityOption`). */
export const identityOptions = (options: RunInfo['options']): Record<string, unknown> =>
  Object.fromEntries(Object.entries(options).filter(([key]) => isIdentityOption(key)));
