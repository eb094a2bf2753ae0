import { constants } from 'node:fs';
import { open, realpath, stat, type FileHandle } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';

/** A file opened under a root: its handle (the caller closes it), its real path, size and time as opened. */
export interface OpenedFile {
  handle: FileHandle;
  real: string;
  size: number;
  mtime: Date;
}

// O_NONBLOCK: a FIFO is opened without waiting for a writer (and then refused: it is no file); 0 where the platform
// has no such flag. Links are followed: what was opened is judged after, by its real path.
const FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/** A segment that names nothing to serve: empty, `.`, `..` and every hidden name (`.git`, `.env`), or one holding a slash, backslash or NUL. */
export const isHiddenSegment = (segment: string): boolean => segment === '' || segment.startsWith('.') || /[/\\\0]/.test(segment);

/** True when `real` lies under `root` (both real paths) and no part of it below `root` is hidden. */
export function isServable(root: string, real: string): boolean {
  const rel = relative(root, real);
  if (rel === '' || isAbsolute(rel)) return false;
  return !rel.split(sep).some(isHiddenSegment);
}

/**
 * The real path of the file `handle` has open: on Linux what /proc/self/fd says; elsewhere (or without /proc) the
 * real path of `path`, only when it is the same file as the one opened (device and inode), so that a link swapped
 * after the open cannot name another file than the one read.
 */
async function openedPath(handle: FileHandle, path: string, info: Stats): Promise<string | undefined> {
  if (process.platform === 'linux') {
    const real = await realpath(`/proc/self/fd/${handle.fd}`).catch(() => undefined);
    if (real !== undefined) return real;
  }
  const real = await realpath(path).catch(() => undefined);
  const now = real === undefined ? undefined : await stat(real).catch(() => undefined);
  return now !== undefined && now.dev === info.dev && now.ino === info.ino ? real : undefined;
}

/**
 * Opens the file `segments` names under `root` (a real path), without a race: the file is opened first, then what
 * was opened is judged by what it is, not by its name: a regular file whose real path lies under `root` and has no
 * hidden part. A link to `.env`, to `.git/config` or out of `root`, a directory, a FIFO or a device is undefined, as
 * is a hidden or malformed segment in the request; a link to a file of `root` is served as that file. A link swapped
 * between a check and the open cannot win: there is no check before the open.
 */
export async function openUnder(root: string, segments: readonly string[]): Promise<OpenedFile | undefined> {
  if (segments.length === 0 || segments.some(isHiddenSegment)) return undefined;
  const path = join(root, ...segments);
  const handle = await open(path, FLAGS).catch(() => undefined);
  if (handle === undefined) return undefined;
  try {
    const info = await handle.stat();
    const real = info.isFile() ? await openedPath(handle, path, info) : undefined;
    if (real !== undefined && isServable(root, real)) return { handle, real, size: info.size, mtime: info.mtime };
  } catch {
    // refused below, as any file that cannot be judged
  }
  await handle.close();
  return undefined;
}
