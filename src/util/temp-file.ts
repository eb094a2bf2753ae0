import { randomBytes } from 'node:crypto';
import { closeSync, lstatSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { link, lstat, open, rename, rm, unlink, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { removedOnExit } from './removed-on-exit.js';

// Every temporary file answer-eval writes is made here: created exclusively (O_CREAT|O_EXCL, the 'wx' flag) beside
// the file it becomes, then renamed over it. A link planted under its name in a directory others can write to
// (`report.json.tmp -> ~/.bashrc`) is never written through: the exclusive create fails on it, and another name is
// taken. rename() replaces a link at the final name rather than follow it.

/** Names tried after the file's own temporary name is taken. */
const TRIES = 8;

const nameOf = (path: string, attempt: number): string =>
  attempt === 0 ? `${path}.tmp` : `${path}.${process.pid}-${randomBytes(6).toString('hex')}.tmp`;

const taken = (error: unknown): boolean => (error as NodeJS.ErrnoException).code === 'EEXIST';
const exhausted = (path: string): Error => Object.assign(new Error(`no free temporary name beside ${path} after ${TRIES + 1} tries`), { code: 'EEXIST' });

// The file's own temporary name, when a regular file holds it (one a killed run left: unlinked, never written
// through; a hard link's other name keeps its content), is tried once more; a link, a directory or a second refusal
// there, and a unique name is taken.

/** Creates a temporary file for `path` exclusively (see above) and opens it for writing, with `mode` (less the umask). */
export async function createTemp(path: string, mode = 0o666): Promise<{ tmp: string; handle: FileHandle }> {
  let removed = false;
  for (let attempt = 0; attempt <= TRIES; ) {
    const tmp = nameOf(path, attempt);
    try {
      return { tmp, handle: await open(tmp, 'wx', mode) };
    } catch (error) {
      if (!taken(error)) throw error;
      if (attempt === 0 && !removed && (await lstat(tmp).catch(() => undefined))?.isFile() === true) {
        removed = true;
        await unlink(tmp).catch(() => {});
        continue;
      }
      attempt++;
    }
  }
  throw exhausted(path);
}

/** createTemp, synchronously: the file descriptor. */
export function createTempSync(path: string): { tmp: string; fd: number } {
  let removed = false;
  for (let attempt = 0; attempt <= TRIES; ) {
    const tmp = nameOf(path, attempt);
    try {
      return { tmp, fd: openSync(tmp, 'wx') };
    } catch (error) {
      if (!taken(error)) throw error;
      if (attempt === 0 && !removed && regularFile(tmp)) {
        removed = true;
        rmSync(tmp, { force: true });
        continue;
      }
      attempt++;
    }
  }
  throw exhausted(path);
}

const regularFile = (path: string): boolean => {
  try {
    return lstatSync(path).isFile();
  } catch {
    return false;
  }
};

/** Writes `text` to `path` whole, through a temporary file made by createTempSync: a reader never sees half of it. */
export function writeFileThroughTemp(path: string, text: string): void {
  const { tmp, fd } = createTempSync(path);
  try {
    writeSync(fd, text);
    closeSync(fd);
    renameSync(tmp, path);
  } catch (error) {
    try {
      closeSync(fd);
    } catch {
      /* closed already */
    }
    rmSync(tmp, { force: true });
    throw error;
  }
}

export interface AtomicWrite {
  /** The file's permission bits, exactly (a file rewritten keeps its own); else the umask's. */
  mode?: number;
  /** Whether a file at `path` is replaced. @default true. Without it, a file there (one that appeared meanwhile too) is kept, and an error with code EEXIST thrown. */
  overwrite?: boolean;
}

/**
 * Writes `data` to `path` atomically and durably: a temporary file made by createTemp (removed on failure, and on a
 * signal before it is moved), written, synced, moved into place, then the directory synced. A reader sees the old
 * file or the new one, never a part of one, and once this returns a crash keeps the new one. Without `overwrite`, a
 * hard link puts it in place, which fails where a file is; where links are not allowed, a rename after a look.
 */
export async function writeFileAtomically(path: string, data: string | Uint8Array, o: AtomicWrite = {}): Promise<void> {
  const { tmp, handle } = await createTemp(path, o.mode === undefined ? undefined : o.mode & 0o777);
  const undo = removedOnExit(tmp);
  try {
    try {
      await handle.writeFile(data);
      if (o.mode !== undefined) await handle.chmod(o.mode & 0o777); // exactly, whatever the umask
      await handle.sync();
    } finally {
      await handle.close();
    }
    if (o.overwrite === false) await placeNew(tmp, path);
    else await rename(tmp, path);
  } finally {
    undo();
    await rm(tmp, { force: true });
  }
  await syncDirectory(dirname(path));
}

const existsError = (path: string): Error => Object.assign(new Error(`${path} exists`), { code: 'EEXIST', path });

/** Puts `tmp` at `path`, which must not exist: a hard link (fails if it does), or, where links are not allowed, a rename. */
async function placeNew(tmp: string, path: string): Promise<void> {
  try {
    await link(tmp, path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw existsError(path);
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'EXDEV') throw error;
    if ((await lstat(path).catch(() => undefined)) !== undefined) throw existsError(path);
    await rename(tmp, path);
  }
}

/** Syncs a directory, so a rename in it survives a crash; a system that cannot sync a directory has done the rename. */
async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } catch {
    // EISDIR, EINVAL or EPERM where directories cannot be synced
  } finally {
    await handle.close();
  }
}
