import { realpathSync } from 'node:fs';
import { isAbsolute, parse, relative, resolve } from 'node:path';

/** A path with its links resolved, as far as it exists (the part that does not is kept as written). */
function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    const up = resolve(path, '..');
    return up === path ? path : resolve(real(up), relative(up, path));
  }
}

/**
 * Why an output directory a config file names cannot be one, or undefined: its own directory, an ancestor of it, or
 * the root of the file system. A run writes journal.jsonl, report.json, results.csv... there, beside (or above) the
 * project's files and the config file itself; checked in, such a value would do so on every machine that runs it.
 */
export function outProblem(value: string, dir: string): string | undefined {
  const out = real(resolve(dir, value));
  const own = real(dir);
  if (out === parse(out).root) return 'is the root of the file system';
  if (out === own) return 'is the directory of the config file';
  const up = relative(out, own);
  if (!up.startsWith('..') && !isAbsolute(up)) return 'is an ancestor of the directory of the config file';
  return undefined;
}
