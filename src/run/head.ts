import { randomBytes } from 'node:crypto';
import { hasUrlSecrets, redactUrl } from '../client/url.js';
import type { RunInfo } from '../model/report.js';
import { TOOL_NAME, TOOL_VERSION } from '../version.js';
import { JOURNAL_VERSION, type JournalHeader } from './journal.js';
import type { RUN_DEFAULTS, RunOptions } from './options.js';

export type Resolved = RunOptions & Required<Pick<RunOptions, keyof typeof RUN_DEFAULTS | 'dataset' | 'baseUrl' | 'agent'>>;

export interface DatasetFacts {
  path: string;
  sha256: string;
  /** Questions in the file. */
  questions: number;
  /** A declared encoding (journaled, not reported). */
  encoding?: string;
  /** Conversations in the file, when it holds any (their turns are among `questions`). */
  conversations?: number;
  /** The file has no id column: questions are named by their line (reported, not journaled: nothing to resume by). */
  idsByLine?: boolean;
  /** The dataset's own columns, kept per question (reported, not journaled: the dataset's sha256 decides them). */
  metadata?: NonNullable<RunInfo['dataset']['metadata']>;
}

/** The journal's first line: what a resumed run must share with the run that wrote it. Never the agent code. */
export function journalHeader({ idsByLine: _, metadata: __, ...dataset }: DatasetFacts, o: Resolved, startedAt: Date): JournalHeader {
  return {
    journal: JOURNAL_VERSION,
    run: randomBytes(8).toString('hex'),
    tool: { name: TOOL_NAME, version: TOOL_VERSION },
    dataset,
    request: {
      baseUrl: o.engine ? null : redactUrl(o.baseUrl),
      ...(!o.engine && hasUrlSecrets(o.baseUrl) ? { baseUrlRedacted: true as const } : {}),
      engine: o.engine ?? null,
      agent: o.agent,
      language: o.language,
      guest: o.guest,
      username: o.username ?? null,
      forceSubscription: o.forceSubscription,
      ...(o.askForMetadata !== undefined ? { askForMetadata: o.askForMetadata } : {}),
      ...(o.usingRepeatingAnswers !== undefined ? { usingRepeatingAnswers: o.usingRepeatingAnswers } : {}),
      output: o.output,
      timeoutMs: o.timeoutMs,
      retries: o.retries,
      maxResponseBytes: o.maxResponseBytes,
      shard: o.shard ? `${o.shard.index}/${o.shard.count}` : null,
      aliases: o.aliases ?? null,
      ...(o.repeat > 1 ? { repeat: o.repeat } : {}),
      ...(dataset.conversations ? { maxTurnDelayMs: o.maxTurnDelayMs } : {}),
    },
    startedAt: startedAt.toISOString(),
  };
}

export interface RunFacts {
  startedAt: Date;
  finishedAt: Date;
  /** Questions this run was to answer (its shard's, or all). */
  total: number;
  finished: number;
  stoppedBy: Error | undefined;
  fromJournal: number;
  asked: number;
  /** Journal lines not taken (damaged, of another run, or for no question of the run): said, and their questions asked again. */
  dropped?: number;
  /** Further askings of a --repeat run that were not made (the run stopped): the run is then partial. */
  unaskedRepeats?: number;
}

/** The `run` part of the report. */
export function runInfo(dataset: DatasetFacts, o: Resolved, f: RunFacts): RunInfo {
  return {
    startedAt: f.startedAt.toISOString(),
    finishedAt: f.finishedAt.toISOString(),
    durationMs: f.finishedAt.getTime() - f.startedAt.getTime(),
    status: f.finished === f.total && !f.unaskedRepeats ? 'completed' : 'partial',
    ...(f.stoppedBy ? { stopReason: f.stoppedBy.message } : {}),
    baseUrl: redactUrl(o.baseUrl),
    embeddedEngine: o.embeddedEngine ?? o.engine !== undefined,
    ...(o.engine ? { engine: o.engine } : {}),
    agent: o.agent,
    dataset: {
      path: dataset.path,
      sha256: dataset.sha256,
      questions: dataset.questions,
      ...(dataset.conversations ? { conversations: dataset.conversations } : {}),
      ...(dataset.idsByLine ? { ids: 'line' as const } : {}),
      ...(dataset.metadata ? { metadata: dataset.metadata } : {}),
    },
    ...(o.shard ? { shard: { ...o.shard, questions: f.total } } : {}),
    options: {
      concurrency: o.concurrency,
      timeoutMs: o.timeoutMs,
      retries: o.retries,
      language: o.language,
      output: o.output,
      guest: o.guest,
      ...(o.username !== undefined ? { username: o.username } : {}),
      forceSubscription: o.forceSubscription,
      ...(o.askForMetadata !== undefined ? { askForMetadata: o.askForMetadata } : {}),
      ...(o.usingRepeatingAnswers !== undefined ? { usingRepeatingAnswers: o.usingRepeatingAnswers } : {}),
      ...(o.rps !== undefined ? { rps: o.rps } : {}),
      maxConsecutiveErrors: o.maxConsecutiveErrors,
      ...(dataset.conversations ? { maxTurnDelayMs: o.maxTurnDelayMs } : {}),
      ...(o.insecure ? { insecure: true } : {}),
    },
    ...(o.resume ? { resumed: { fromJournal: f.fromJournal, asked: f.asked, rerun: o.rerun ?? null, ...(f.dropped ? { dropped: f.dropped } : {}) } } : {}),
    ...(o.repeat > 1 ? { repeat: { times: o.repeat, scored: 'first' as const } } : {}),
  };
}
