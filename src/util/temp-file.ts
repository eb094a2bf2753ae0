import { randomBytes } from 'node:crypto';
import { closeSync, lstatSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { lstat, open, unlink, type FileHandle } from 'node:fs/promises';

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

/** Creates a temporary file for `path` exclusively (see above) and opens it for writing. */
export async function createTemp(path: string): Promise<{ tmp: string; handle: FileHandle }> {
  let removed = false;
  for (let attempt = 0; attempt <= TRIES; ) {
    const tmp = nameOf(path, attempt);
    try {
      return { tmp, handle: await open(tmp, 'wx') };
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
