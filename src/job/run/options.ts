import type { Output } from '../../model/request-fields.js';
import { ConfigError } from '../../errors.js';
import { wantsRegressionGates } from '../../gate/options.js';
import type { FailOn } from '../../gate/gates.js';

/**
 * The options of a run: the flags of `answer-eval run`, camel-cased, with the same meaning and defaults (docs/cli.md
 * says what each does; test/job/run-options.test.ts holds this list to the command's flags). Paths are relative to the
 * io's working directory.
 */
export interface RunJobOptions {
  /** The question set, .csv or .jsonl. @default the sample set, with the embedded engine; with `resume`, the journal's */
  dataset?: string | undefined;
  /** The dataset's encoding when it is not UTF-8 (latin1, windows-1252, utf-16le, ...). */
  encoding?: string | undefined;
  /** A CSV of old,new sequence numbers applied to expected_sequence. */
  aliases?: string | undefined;
  /** The Answer Service. @default the embedded engine, started for the run */
  baseUrl?: string | undefined;
  /** The knowledge base: served by the embedded engine, or, with `baseUrl`, the one beside the service. */
  kb?: string | undefined;
  /** The embedded engine's floor threshold, 0-100. @default 50 */
  floor?: number | undefined;
  /** The embedded engine's suggestion threshold, 0-100. @default 50 */
  suggestionThreshold?: number | undefined;
  /** The agent id (wikiagent); its code comes from ANSWER_AGENT_CODE of the io's environment, or `agentCodeFile`. */
  agent?: string | undefined;
  agentCodeFile?: string | undefined;
  /** Requests in flight at once. @default 8 */
  concurrency?: number | undefined;
  /** Requests per second for the whole run. @default no limit until a 429 */
  rps?: number | undefined;
  /** Per request, in ms. @default 30000 */
  timeout?: number | undefined;
  /** Retries for network errors, timeouts, 429 and 5xx. @default 2 */
  retries?: number | undefined;
  pauseOn429?: boolean | undefined;
  /** Stop the run (exit 3) after this many questions in a row end in error; 0 never stops. @default 20 */
  maxConsecutiveErrors?: number | undefined;
  /** ISO 639-1 code. @default 'en' */
  language?: string | undefined;
  username?: string | undefined;
  guest?: boolean | undefined;
  forceSubscription?: boolean | undefined;
  askForMetadata?: boolean | undefined;
  usingRepeatingAnswers?: boolean | undefined;
  /** The response format asked for and scored. @default 'json' */
  output?: Output | undefined;
  maxResponseBytes?: number | undefined;
  /** Ask only shard i of n (`2/4`), or `auto` from the CI's environment. */
  shard?: string | undefined;
  /** Ask every question N times. @default 1 */
  repeat?: number | undefined;
  /** With `repeat`: fail when the share of questions with one top-1 across their askings is below this. */
  minConsistency?: number | undefined;
  /** Conversations: the longest wait, in ms, after a turn asking for a delay. */
  maxTurnDelay?: number | undefined;
  minConversationPassRate?: number | undefined;
  /** The run's directory. @default reports/<timestamp> under the working directory */
  out?: string | undefined;
  /** The reports to write, comma-separated. @default 'all' */
  format?: string | undefined;
  /** Continue the run journaled in this directory. */
  resume?: string | undefined;
  /** Replace the run `out` holds once this one completes. @default false */
  overwrite?: boolean | undefined;
  /** With `resume`: ask again the questions that ended in error. */
  rerun?: 'errors' | undefined;
  /** After an interrupt, ms to wait for requests in flight. @default 2000 */
  grace?: number | undefined;
  /** No progress line. @default false */
  quiet?: boolean | undefined;
  /** Do not verify TLS certificates (test servers only). @default false */
  insecure?: boolean | undefined;
  /** A report.json (or its run's directory) to compare with; compare.* are written beside the reports. */
  baseline?: string | undefined;
  /** Compare with `baseline` even when its agent or schemaVersion major differ. @default false */
  force?: boolean | undefined;
  minAccuracy?: number | undefined;
  minAnswerableAccuracy?: number | undefined;
  maxErrorRate?: number | undefined;
  maxFallbackMissedRate?: number | undefined;
  /** Fail when the share of knowledge-base entries some answerable question expects is below this (needs the knowledge base: the embedded engine's, or `kb`). */
  minCoverage?: number | undefined;
  failOn?: FailOn | undefined;
  /** @default 0.05 */
  alpha?: number | undefined;
  maxBroken?: number | undefined;
  quarantine?: string | undefined;
  /** @default 1e-6 */
  scoreEpsilon?: number | undefined;
  /** @default 2000 */
  resamples?: number | undefined;
  /** @default 1 */
  seed?: number | undefined;
  oosShare?: number | undefined;
  keepAccuracy?: number | undefined;
}

/** The combinations of options a run refuses (exit 2), for the CLI's flags and a program's options alike. */
export function checkRunOptions(o: RunJobOptions): void {
  if (o.minConsistency !== undefined && o.resume === undefined && !((o.repeat ?? 1) > 1)) throw new ConfigError('--min-consistency needs --repeat N with N >= 2 (it judges whether repeated askings get the same top-1)');
  if (o.rerun !== undefined && o.resume === undefined) throw new ConfigError('--rerun errors needs --resume DIR (it reruns the errors of an earlier run)');
  if (o.overwrite && o.resume !== undefined) throw new ConfigError('--overwrite starts a new run in place of the one --out holds; --resume continues a run: give one of them');
  if (o.resume !== undefined && o.out !== undefined && o.out !== o.resume) {
    throw new ConfigError(`--out ${o.out} and --resume ${o.resume} differ: a resumed run writes into the directory it resumes`);
  }
  for (const flag of ['agent', 'username'] as const) {
    if (o[flag] !== undefined && o[flag].trim() === '') throw new ConfigError(`--${flag} is empty (expected ${flag === 'agent' ? 'the agent id, wikiagent' : 'the user the questions are asked as'})`);
  }
  if (o.oosShare !== undefined && o.keepAccuracy !== undefined) throw new ConfigError('--oos-share and --keep-accuracy are two objectives: give one');
  if (wantsRegressionGates(o) && o.baseline === undefined) throw new ConfigError('--fail-on, --max-broken and --quarantine need --baseline FILE (a report.json to compare with)');
}
