import type { Stats } from 'node:fs';
import { mkdir, stat } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { ConfigError } from '../errors.js';

/**
 * Makes sure `dir` is a directory (creating it and its parents), or says why it cannot be one, naming it
 * after `what` (a flag such as `--out`): an existing file, a path below a file, a device such as /dev/null,
 * no permission, a read-only or full file system. ConfigError (exit 2): nothing was sent yet. True when it
 * was created.
 */
export async function ensureDir(dir: string, what: string): Promise<boolean> {
  const info = await stat(dir).catch(() => undefined);
  if (info?.isDirectory()) return false;
  if (info) throw new ConfigError(`${what} ${dir} is ${kindOf(info)}, not a directory (reports and the journal go into a directory): choose another path`);
  try {
    await mkdirs(dir);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOTDIR' || code === 'EEXIST') {
      const file = await fileAbove(dir);
      throw new ConfigError(`${what} ${dir} lies below ${file ?? 'a file'}, which is ${file ? kindOf(await stat(file)) : 'a file'}, not a directory: choose another path`, { cause: error });
    }
    throw new ConfigError(`${what} ${dir} cannot be created: ${reasonOf(error)}`, { cause: error });
  }
}

/**
 * mkdir -p, one level at a time from the nearest existing ancestor: Node's recursive mkdir never returns under a
 * file system that refuses new entries with ENOENT, such as /proc (it retries the same level for ever).
 */
export async function mkdirs(dir: string): Promise<void> {
  const missing: string[] = [];
  for (let p = resolve(dir); ; p = dirname(p)) {
    if (await stat(p).then(() => true, () => false)) break;
    missing.unshift(p);
    if (dirname(p) === p) break;
  }
  for (const p of missing) {
    await mkdir(p).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error; // made meanwhile by another process: fine, if a directory (checked below)
    });
  }
  if (!(await stat(dir)).isDirectory()) throw Object.assign(new Error(`${dir} is not a directory`), { code: 'ENOTDIR' });
}

/** A file-system error in words, with its code: "permission denied (EACCES)". */
export function reasonOf(error: unknown): string {
  const e = error as NodeJS.ErrnoException;
  const words: Record<string, string> = {
    EACCES: 'permission denied',
    ENOENT: 'no such file or directory',
    EPERM: 'operation not permitted',
    EROFS: 'read-only file system',
    ENOSPC: 'no space left on device',
    EDQUOT: 'disk quota exceeded',
    EIO: 'input/output error',
    EFBIG: 'file too large',
    ENAMETOOLONG: 'name too long',
  };
  return e.code && words[e.code] ? `${words[e.code]} (${e.code})` : e.code ? `${e.code}: ${e.message}` : e.message;
}

const kindOf = (s: Stats): string =>
  s.isFile() ? 'a file' : s.isCharacterDevice() ? 'a character device' : s.isBlockDevice() ? 'a block device' : s.isFIFO() ? 'a pipe' : s.isSocket() ? 'a socket' : 'not a directory';

/** The nearest ancestor of `dir` that exists and is not a directory. */
async function fileAbove(dir: string): Promise<string | undefined> {
  for (let p = dirname(resolve(dir)); p !== dirname(p); p = dirname(p)) {
    const info = await stat(p).catch(() => undefined);
    if (info && !info.isDirectory()) {
      // the ancestors above it are directories; say the path as the user gave it when it is a prefix of theirs
      const given = dir.split('/').reduce<string[]>((acc, part) => [...acc, acc.length ? `${acc[acc.length - 1]}/${part}` : part], []);
      return given.find((g) => resolve(g) === p) ?? p;
    }
  }
  return undefined;
}

/** Where a path in a staging directory lands once its files are moved into `dir` (others stay where they are). */
export const landed = (staging: string, dir: string) => (path: string): string =>
  resolve(path).startsWith(resolve(staging) + sep) ? join(dir, relative(staging, path)) : path;
