import { parseShard } from '../dataset/shard.js';
import { ConfigError } from '../errors.js';
import type { JournalHeader } from './journal.js';
import type { RunOptions } from './options.js';

/**
 * What a resumed run takes from its journal when it is not given again: the dataset, where and how each question
 * is asked, and what decides whether it ends in error or how it is scored. Never the agent code.
 */
export function resumeDefaults(header: JournalHeader): Partial<RunOptions> {
  const r = header.request;
  return {
    dataset: header.dataset.path,
    ...(header.dataset.encoding !== undefined ? { encoding: header.dataset.encoding } : {}),
    // an embedded run's engine is started again by the caller (openTarget with `resumes`), who passes its new
    // URL and its identity; the journal's identity is compared with it, not taken for it
    ...(r.baseUrl !== null && !r.baseUrlRedacted ? { baseUrl: r.baseUrl } : {}),
    agent: r.agent,
    language: r.language,
    guest: r.guest,
    ...(r.username !== null ? { username: r.username } : {}),
    forceSubscription: r.forceSubscription,
    ...(r.askForMetadata !== undefined ? { askForMetadata: r.askForMetadata } : {}),
    ...(r.usingRepeatingAnswers !== undefined ? { usingRepeatingAnswers: r.usingRepeatingAnswers } : {}),
    output: r.output as NonNullable<RunOptions['output']>,
    timeoutMs: r.timeoutMs,
    retries: r.retries,
    maxResponseBytes: r.maxResponseBytes,
    ...(r.shard !== null ? { shard: parseShard(r.shard) } : {}),
    ...(r.aliases !== null ? { aliases: r.aliases } : {}),
    ...(r.repeat !== undefined ? { repeat: r.repeat } : {}),
    ...(r.maxTurnDelayMs !== undefined ? { maxTurnDelayMs: r.maxTurnDelayMs } : {}),
  };
}

/**
 * The base URL a resumed run takes from its journal when not given one: refused when the journal left out the
 * credentials or query string it had (secrets, as the agent code is), since the service would refuse it without them.
 */
export function journaledBaseUrl(header: JournalHeader): string | undefined {
  const { baseUrl, baseUrlRedacted } = header.request;
  if (baseUrlRedacted) {
    throw new ConfigError(`the journal keeps the service as ${baseUrl}, without the credentials or query string its --base-url held (they are secrets): resume with --base-url again`);
  }
  return baseUrl ?? undefined;
}

/** The options given, without those left undefined (so they do not hide a default). */
export const givenOnly = <T extends object>(o: T): T =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
