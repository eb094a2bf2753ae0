import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A fresh temporary directory for one test file. */
export const tempDir = (prefix = 'answer-eval-'): string => mkdtempSync(join(tmpdir(), prefix));

/** Writes `content` to `name` in `dir` and returns its path. */
export function writeTemp(dir: string, name: string, content: string): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

/** A FIFO `name` in `dir` that a shell fills with `file` once, as `<(cat file)` does: a second read finds nothing. */
export function fifoOf(dir: string, file: string, name: string): string {
  const path = join(dir, name);
  execFileSync('mkfifo', [path]);
  spawn('sh', ['-c', 'cat "$0" > "$1"', file, path], { stdio: 'ignore' });
  return path;
}
