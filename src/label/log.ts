import { constants } from 'node:fs';
import { open, readFile } from 'node:fs/promises';
import type { Decision } from './decision.js';

/**
 * The decision log beside a question set (`<set>.labels.jsonl`): every decision and every undo, appended and synced
 * to disk before the set is rewritten, so nothing decided is lost and undo works after a restart. It is the source
 * of truth for undo: replaying it gives the decisions still in force.
 */

export const LOG_VERSION = 1;

/** sha256 of the set's bytes before and after the entry was written into it (the same for a skip). */
interface SetHashes {
  before: string;
  after: string;
}

export interface LogDecision {
  v: typeof LOG_VERSION;
  kind: 'decision';
  at: string;
  id: string;
  decision: Decision;
  /** The cells set (an empty value clears one); absent for a skip. */
  changes?: Record<string, string>;
  /** Columns the set did not have and got. */
  added?: string[];
  /** The row's text before and after (after any column added): what an undo puts back, and checks first. */
  row?: { before: string; after: string };
  set: SetHashes;
}

export interface LogUndo {
  v: typeof LOG_VERSION;
  kind: 'undo';
  at: string;
  /** The index (0-based line) of the decision undone. */
  of: number;
  id: string;
  set: SetHashes;
}

export type LogEntry = LogDecision | LogUndo;

/** The log's lines as read: an entry, or undefined for a line that is none (damaged, cut short by a crash). */
export type LogLines = (LogEntry | undefined)[];

/** What replaying a log gives: the decisions in force (indices, oldest first), and lines that could not be taken. */
export interface Replayed {
  active: number[];
  ignored: number[];
}

/**
 * The decisions still in force: each decision is pushed, each undo pops the one it names (which must be the last in
 * force; an undo of anything else, or a line that is no entry, is ignored and listed).
 */
export function replay(lines: LogLines): Replayed {
  const active: number[] = [];
  const ignored: number[] = [];
  lines.forEach((e, i) => {
    if (e?.kind === 'decision') active.push(i);
    else if (e?.kind === 'undo' && active.at(-1) === e.of) active.pop();
    else ignored.push(i);
  });
  return { active, ignored };
}

const isEntry = (v: unknown): v is LogEntry => {
  const e = v as Partial<LogEntry> | null;
  return typeof e === 'object' && e !== null && e.v === LOG_VERSION && (e.kind === 'decision' || e.kind === 'undo') && typeof e.id === 'string' && typeof e.set === 'object';
};

/** The entries of a log's text; a line that is none is undefined (kept, so indices stay lines). */
export function parseLog(text: string): LogLines {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines.map((line) => {
    try {
      const v = JSON.parse(line) as unknown;
      return isEntry(v) ? v : undefined;
    } catch {
      return undefined;
    }
  });
}

/** The log at `path` (none yet: empty). */
export async function readLog(path: string): Promise<LogLines> {
  const text = await readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return '';
    throw error;
  });
  return parseLog(text);
}

/**
 * Appends an entry and syncs it to disk. The log is opened without following a link (a link planted in its place is
 * refused); a last line cut short by a crash is ended first, so the new entry is a line of its own.
 */
export async function appendLog(path: string, entry: LogEntry): Promise<void> {
  const handle = await open(path, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | (constants.O_NOFOLLOW ?? 0), 0o644);
  try {
    const { size } = await handle.stat();
    let torn = false;
    if (size > 0) {
      const last = Buffer.alloc(1);
      const reader = await open(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
      try {
        await reader.read(last, 0, 1, size - 1);
      } finally {
        await reader.close();
      }
      torn = last[0] !== 0x0a;
    }
    await handle.write(`${torn ? '\n' : ''}${JSON.stringify(entry)}\n`);
    await handle.sync();
  } finally {
    await handle.close();
  }
}
