import { lstatSync, readFileSync, rmSync } from 'node:fs';
import { link, lstat, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '../errors.js';
import { reasonOf } from '../util/out-dir.js';
import { createTemp } from '../util/temp-file.js';

export const LOCK_FILE = 'answer-eval.lock';

interface Holder {
  pid: number;
  host: string;
  startedAt: string;
}

export interface DirLock {
  path: string;
  /** The run whose stale lock (its process is gone) was taken over. */
  tookOver?: Holder;
  /** Removes the lock file if it is still this process's. */
  release(): void;
}

/**
 * Claims a run directory for this process with a lock file holding its pid, host and start time, so two runs
 * never write one journal. A lock whose process is no longer running on this host is stale and taken over;
 * a live one (or one from another host, which cannot be checked) is refused with a ConfigError naming it.
 */
export async function lockDir(dir: string, what: string): Promise<DirLock> {
  const path = join(dir, LOCK_FILE);
  const mine: Holder = { pid: process.pid, host: hostname(), startedAt: new Date().toISOString() };
  const text = `${JSON.stringify(mine)}\n`;
  // written whole beside it (made exclusively: never through a link planted there), then linked into place: no other
  // run can see a lock without its pid
  let staged: string | undefined;
  let tookOver: Holder | undefined;
  try {
    const temp = await createTemp(`${path}.${process.pid}`); // this process's own: another run's is never taken for a stale one
    staged = temp.tmp;
    await temp.handle.writeFile(text);
    await temp.handle.close();
    for (let attempt = 0; ; attempt++) {
      if (await place(temp.tmp, path, text)) break;
      const holder = await readHolder(path);
      if (holder === 'gone' && attempt < 3) continue;
      if (holder !== 'gone' && holder !== 'unreadable' && running(holder)) {
        throw new ConfigError(
          `${what} ${dir} is in use by another answer-eval run (pid ${holder.pid}${holder.host !== mine.host ? ` on ${holder.host}` : ''}, since ${holder.startedAt}): ` +
            `wait for it to finish, or choose another directory. If no run is using it, delete ${path}`,
        );
      }
      if (attempt >= 3) throw new ConfigError(`${what} ${dir}: cannot take the lock ${path} (other runs keep taking it)`);
      if (holder !== 'gone' && holder !== 'unreadable') tookOver = holder;
      await rm(path, { force: true });
    }
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw new ConfigError(`${what} ${dir}: cannot write the lock file ${path}: ${reasonOf(error)}`, { cause: error });
  } finally {
    if (staged !== undefined) await rm(staged, { force: true });
  }
  return {
    path,
    ...(tookOver ? { tookOver } : {}),
    release: () => {
      try {
        const info = lstatSync(path);
        if (info.isFile() && info.size === Buffer.byteLength(text) && readFileSync(path, 'utf8') === text) rmSync(path, { force: true });
      } catch {
        /* already gone */
      }
    },
  };
}

/** Puts the lock in place; false when another one is there. */
async function place(staged: string, path: string, text: string): Promise<boolean> {
  try {
    await link(staged, path);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP') throw error;
  }
  // a file system without hard links
  try {
    await writeFile(path, text, { flag: 'wx' });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

/** A lock answer-eval writes is one short line; anything longer is no lock of its own. */
const MAX_LOCK_BYTES = 4096;

async function readHolder(path: string): Promise<Holder | 'gone' | 'unreadable'> {
  let text: string;
  try {
    // a FIFO or a device in its place would hang the read or fill memory: only a small regular file is read
    const info = await lstat(path);
    if (!info.isFile()) throw new ConfigError(`${path} is not a lock file answer-eval wrote (not a regular file): if no run is using the directory, delete it`);
    if (info.size > MAX_LOCK_BYTES) return 'unreadable';
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'gone';
    throw error;
  }
  try {
    const value = JSON.parse(text) as Partial<Holder>;
    if (typeof value.pid === 'number' && Number.isInteger(value.pid) && value.pid > 0) {
      return { pid: value.pid, host: String(value.host ?? ''), startedAt: String(value.startedAt ?? '?') };
    }
  } catch {
    /* below */
  }
  return 'unreadable';
}

/** Whether the lock's process is alive; a lock from another host cannot be checked and counts as alive. */
function running(holder: Holder): boolean {
  if (holder.host !== hostname()) return true;
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  return !zombie(holder.pid);
}

/**
 * Whether the process has exited but not been reaped (Linux): signal 0 still reaches it, so a run killed with
 * SIGKILL looked alive until its parent reaped it, forever under a container init that never does.
 */
function zombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) === 'Z';
  } catch {
    return false; // no /proc (macOS) or gone meanwhile: as signal 0 said
  }
}
