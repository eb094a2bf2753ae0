import { reasonOf } from './out-dir.js';

/**
 * What a failed read of a file the user named says, after `path: `: no such file, a directory, no permission, or
 * the system's code; undefined for an error that is not a file system one (a bug, passed on as it is).
 */
export function readFailureMessage(error: unknown, expected: string): string | undefined {
  const e = error as NodeJS.ErrnoException;
  if (e.code === 'ENOENT') return 'no such file';
  if (e.code === 'EISDIR') return `is a directory (expected ${expected})`;
  if (e.code === 'EACCES' || e.code === 'EPERM') return 'permission denied';
  if (e.code === 'ENOTDIR') return 'no such file (a part of the path is a file, not a directory)';
  if (typeof e.code === 'string' && e.syscall !== undefined) return `cannot be read: ${reasonOf(error)}`;
  return undefined;
}
