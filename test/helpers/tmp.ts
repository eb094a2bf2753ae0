import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const made: string[] = [];

/** Removes the directories tempDir made: after each test file (test/setup/each-file.ts). */
export function removeTempDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** A fresh temporary directory for one test file, removed after the file's tests. */
export function tempDir(prefix = 'answer-eval-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** Every file under `root`, at any depth. */
export const filesUnder = (root: string): string[] =>
  readdirSync(root, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(join(root, e.name)) : [join(root, e.name)]));

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
