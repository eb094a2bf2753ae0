import { checkAgentCode } from '../client/agent-code.js';
import { runLanguage } from '../client/request.js';
import { ConfigError } from '../errors.js';
import { MAX_RESPONSE_BYTES } from '../util/json-lines.js';
import type { Resolved } from './head.js';
import { readJournal, type JournalContents } from './journal-read.js';
import { RUN_DEFAULTS, type RunOptions } from './options.js';
import { givenOnly, journaledBaseUrl, resumeDefaults } from './resume.js';

/**
 * The run's options, checked, each left out taking its default: a resumed run's from its journal (read here, its header
 * checked; every line is checked later, against its question), the others' from RUN_DEFAULTS.
 */
export async function settle(options: RunOptions): Promise<{ o: Resolved; journal?: JournalContents }> {
  if (options.resume && options.journalDir === undefined) throw new ConfigError('resume needs the journal directory (--resume DIR)');
  if (options.rerun !== undefined && !options.resume) throw new ConfigError('--rerun errors needs --resume DIR (it reruns the errors of an earlier run)');
  const journal = options.resume ? await readJournal(options.journalDir!) : undefined;
  if (journal && options.baseUrl === undefined) journaledBaseUrl(journal.header); // refused when the journal left out the URL's secrets
  const o = resolve({ ...RUN_DEFAULTS, ...(journal ? resumeDefaults(journal.header) : {}), ...givenOnly(options) });
  checkAgentCode(o.agentCode);
  return journal ? { o, journal } : { o };
}

function resolve(o: RunOptions & Required<Pick<RunOptions, keyof typeof RUN_DEFAULTS>>): Resolved {
  for (const [key, flag] of [['dataset', '--dataset'], ['baseUrl', '--base-url'], ['agent', '--agent']] as const) {
    if (o[key] === undefined) throw new ConfigError(`${flag} is required (or resume a journaled run)`);
  }
  if (!Number.isInteger(o.repeat) || o.repeat < 1) throw new ConfigError(`--repeat must be a whole number >= 1, got ${o.repeat}`);
  o.language = runLanguage(o.language, o.onWarning); // a region form (en-US) is asked, journaled and reported as its code
  if (!Number.isInteger(o.maxResponseBytes) || o.maxResponseBytes < 1 || o.maxResponseBytes > MAX_RESPONSE_BYTES) {
    throw new ConfigError(`--max-response-bytes must be a whole number from 1 to ${MAX_RESPONSE_BYTES} (32 MiB), got ${o.maxResponseBytes}`);
  }
  return o as Resolved;
}
