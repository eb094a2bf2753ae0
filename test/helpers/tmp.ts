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
