import { open, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { readReportHead } from '../report/read.js';
import { JOURNAL_FILE } from '../run/journal.js';
import { readJournalHeader } from '../run/journal-read.js';
import type { LeftOutRun } from '../trend/gates.js';

/** The start time at the top of a report.json in the layout answer-eval writes (`"run": {` then `"startedAt"`). */
const STARTED_AT = /"run":\s*\{\s*"startedAt":\s*"(\d{4}-\d\d-\d\dT[^"]{1,40})"/;

/** The start time written near the top of a report that cannot be read whole (cut off, another schema version). */
async function startedAtText(path: string): Promise<string | undefined> {
  const handle = await open(path, 'r').catch(() => undefined);
  if (handle === undefined) return undefined;
  try {
    const { buffer, bytesRead } = await handle.read({ buffer: Buffer.alloc(4096), position: 0 });
    return STARTED_AT.exec(buffer.subarray(0, bytesRead).toString('utf8'))?.[1];
  } catch {
    return undefined;
  } finally {
    await handle.close();
  }
}

const modified = (path: string): Promise<string | undefined> => stat(path).then((s) => s.mtime.toISOString(), () => undefined);
const journalStart = (dir: string): Promise<string | undefined> => readJournalHeader(dir).then((h) => h.startedAt, () => undefined);

/**
 * When a run left out of the trend ran, as far as can be told without its report: `path` is its report.json, or its
 * directory when it holds only a journal. The start time from the report's head (readable when only its results are
 * cut off), else from the journal's header, else from the top of the report's text; else when its file was last written.
 */
async function whenRan(path: string): Promise<Omit<LeftOutRun, 'path'>> {
  const dir = (await stat(path).then((s) => s.isDirectory(), () => false)) ? path : undefined;
  if (dir === undefined) {
    const head = await readReportHead(path).catch(() => undefined);
    if (head !== undefined) return { when: { at: head.run.startedAt, what: 'started' }, ...(head.run.rescored ? { whatIf: true } : {}) };
  }
  const started = (await journalStart(dir ?? dirname(path))) ?? (dir === undefined ? await startedAtText(path) : undefined);
  if (started !== undefined) return { when: { at: started, what: 'started' } };
  const written = await modified(dir !== undefined ? join(dir, JOURNAL_FILE) : path);
  return written !== undefined ? { when: { at: written, what: 'last written' } } : {};
}

/** Each run left out of the trend, with when it ran as far as can be told (see whenRan). */
export async function leftOutRuns(paths: readonly string[]): Promise<LeftOutRun[]> {
  const out: LeftOutRun[] = [];
  for (const path of paths) out.push({ path, ...(await whenRan(path)) });
  return out;
}
