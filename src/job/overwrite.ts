import { createReadStream } from 'node:fs';
import { readdir, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { COMPARE_FORMATS } from '../compare/render/index.js';
import { CHANGES_FILE } from '../compare/schema.js';
import { ConfigError } from '../errors.js';
import { REPORT_FORMATS } from '../report/formats.js';
import { readReportHead } from '../report/read.js';
import { QUARANTINE_FILE } from '../model/quarantine.js';
import { JOURNAL_FILE } from '../run/journal.js';
import { readJournalHeader } from '../run/journal-read.js';
import { landed } from '../util/out-dir.js';
import { COMPARE_JUNIT_FILE } from '../compare/render/junit.js';
import { RUN_OPTIONS_FILE } from './run/kept-options.js';

/**
 * The files answer-eval writes for a run or a report set: the journal, run-options.json, every report format, the
 * comparison with --baseline, the quarantine.txt of `run --repeat`, and the TREC files `export` derives from the report. A directory holding any of them
 * holds a run: `run`, `rescore`, `merge` and `report` refuse to write into it unless --overwrite, which replaces
 * them all once the new run has completed, so that none of the earlier run's files passes for the new one's.
 */
export const RUN_FILES: readonly string[] = [
  JOURNAL_FILE,
  RUN_OPTIONS_FILE,
  ...Object.values(REPORT_FORMATS).map((f) => f.file),
  ...Object.values(COMPARE_FORMATS).map((f) => f.file),
  CHANGES_FILE,
  COMPARE_JUNIT_FILE,
  QUARANTINE_FILE,
  'run.trec',
  'qrels.trec',
];

/**
 * Where an --overwrite run writes until it completes: one directory per run started, inside the directory it
 * replaces (same file system: the files are moved into place by rename).
 */
export const STAGING = '.answer-eval-overwrite';

const exists = (path: string): Promise<boolean> => stat(path).then(() => true, () => false);

/** A new staging directory for an --overwrite run (not made yet: the journal makes it). */
export const newStaging = (dir: string, at: Date): string => join(dir, STAGING, at.toISOString().replace(/[:.]/g, '-'));

/** The newest unfinished --overwrite run in `dir` (its staging directory, holding a journal), if any. */
export async function pendingOverwrite(dir: string): Promise<string | undefined> {
  const names = await readdir(join(dir, STAGING)).catch(() => [] as string[]);
  for (const name of names.sort().reverse()) if (await exists(join(dir, STAGING, name, JOURNAL_FILE))) return join(dir, STAGING, name);
  return undefined;
}

/** The run directory whose --overwrite run `path` is the staging directory of; undefined when it is none. */
export const stagedFor = (path: string): string | undefined => (basename(dirname(resolve(path))) === STAGING ? dirname(dirname(path)) : undefined);

/** Lines in a file, counted in one streaming pass (a journal's results: its lines less the header). */
async function lineCount(path: string): Promise<number> {
  let n = 0;
  for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, i + 1)) n++;
  return n;
}

/** What an earlier run in a directory is, in words, and whether `run --resume` can finish it. */
export interface HeldRun {
  words: string;
  resumable: boolean;
}

/** The journal of a run in words: `started 2026-01-10T02:17:00.000Z, 40 of 113 questions answered`. */
async function journalWords(dir: string): Promise<string | undefined> {
  const header = await readJournalHeader(dir).catch(() => undefined);
  if (header === undefined) return undefined;
  const answered = Math.max(0, (await lineCount(join(dir, JOURNAL_FILE)).catch(() => 1)) - 1);
  return `started ${header.startedAt}, ${answered} of ${header.dataset.questions} questions answered`;
}

/** What `dir` holds of an earlier run (or report set), in words; undefined when it holds none of its files. */
export async function heldRun(dir: string): Promise<HeldRun | undefined> {
  const pending = await pendingOverwrite(dir);
  if (pending !== undefined) {
    const words = (await journalWords(pending)) ?? 'its journal cannot be read';
    return { words: `an unfinished --overwrite run (${words}; in ${pending}), beside the earlier run it is to replace`, resumable: true };
  }
  const names = new Set(await readdir(dir).catch(() => [] as string[]));
  const found = RUN_FILES.filter((f) => names.has(f));
  if (found.length === 0) return undefined;
  const journal = names.has(JOURNAL_FILE) ? await journalWords(dir) : undefined;
  if (names.has('report.json')) {
    const head = await readReportHead(join(dir, 'report.json')).catch(() => undefined);
    if (head !== undefined) {
      const { run, summary } = head;
      const what = run.rescored ? 'a rescored report' : run.mergedFrom ? 'a merged report' : 'a run';
      if (run.status === 'completed') return { words: `${what === 'a run' ? 'a completed run' : what} of ${summary.total} questions (started ${run.startedAt})`, resumable: false };
      return { words: `a partial run (${summary.total} of ${run.dataset.questions} questions, started ${run.startedAt})`, resumable: journal !== undefined };
    }
  }
  if (journal !== undefined) return { words: `an interrupted run (${journal}; no report was written)`, resumable: true };
  return { words: `files of an earlier run (${found.join(', ')})`, resumable: false };
}

/**
 * The refusal of a directory that holds a run, before anything is sent: what it holds, then what to do: finish it
 * (when it can be), replace it, or write elsewhere.
 */
export function heldRunError(dir: string, flag: string, held: HeldRun, fresh: string): ConfigError {
  const ways = [
    ...(held.resumable ? [`To finish it: answer-eval run --resume ${dir}.`] : []),
    'To replace it: add --overwrite (the earlier run stays as it is until the new one has completed).',
    `To keep it: ${fresh}.`,
  ];
  return new ConfigError(`${flag} ${dir} holds ${held.words}; nothing was changed. ${ways.join(' ')}`);
}

/**
 * Puts a completed --overwrite run in place of the earlier one: the earlier run's files that the new run did not
 * write are removed (a format not asked for this time must not pass for the new run's), each new file is renamed
 * over the old one, the journal last (until it is moved, `run --resume DIR` finds the new run still pending and
 * finishes the move), then every staging directory goes. Returns where each staged path now is.
 */
export async function publishRun(staging: string, dir: string): Promise<(path: string) => string> {
  const fresh = await readdir(staging);
  for (const name of RUN_FILES) if (!fresh.includes(name)) await rm(join(dir, name), { force: true });
  const ordered = [...fresh.filter((n) => n !== JOURNAL_FILE), ...fresh.filter((n) => n === JOURNAL_FILE)];
  for (const name of ordered) await rename(join(staging, name), join(dir, name));
  await rm(join(dir, STAGING), { recursive: true, force: true });
  return landed(staging, dir);
}
