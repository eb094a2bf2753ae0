import { readdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { ConfigError } from '../errors.js';
import { reasonOf } from '../util/out-dir.js';

const REPORT = 'report.json';
const JOURNAL = 'journal.jsonl';

const unfinished = (dir: string): string =>
  `it holds a run's journal but no ${REPORT} (the run died before writing its reports); answer-eval run --resume ${dir} finishes it`;

const isFile = (path: string): Promise<boolean> => stat(path).then((s) => s.isFile(), () => false);

/**
 * The report.json of every run named: a run directory (holding a report.json), a report.json itself, or a
 * directory holding run directories (one level down, e.g. one per night). Each report once, in the order found.
 * A run directory with a journal but no report.json (a night that died before writing its reports) is told to
 * `onUnfinished`, with how to finish it.
 */
export async function findRuns(paths: readonly string[], onUnfinished?: (dir: string, why: string) => void): Promise<string[]> {
  const found: string[] = [];
  for (const path of paths) {
    const info = await stat(path).catch((error: NodeJS.ErrnoException) => {
      throw new ConfigError(`${path}: ${error.code === 'ENOENT' ? 'no such file or directory' : `cannot be read: ${reasonOf(error)}`} (expected a run directory or a directory of runs)`, { cause: error });
    });
    if (!info.isDirectory()) {
      found.push(path); // a file, or anything else the report reader names (a pipe, a device)
      continue;
    }
    if (await isFile(join(path, REPORT))) {
      found.push(join(path, REPORT));
      continue;
    }
    if (await isFile(join(path, JOURNAL))) {
      onUnfinished?.(path, unfinished(path));
      continue;
    }
    const entries = await readdir(path, { withFileTypes: true });
    const runs: string[] = [];
    for (const entry of entries.filter((e) => e.isDirectory()).map((e) => e.name).sort()) {
      if (await isFile(join(path, entry, REPORT))) runs.push(join(path, entry, REPORT));
      else if (await isFile(join(path, entry, JOURNAL))) {
        onUnfinished?.(join(path, entry), unfinished(join(path, entry)));
      }
    }
    if (runs.length === 0) throw new ConfigError(`${path}: no ${REPORT} in it or in its subdirectories (expected the --out directory of a run, or a directory holding them)`);
    found.push(...runs);
  }
  if (found.length === 0) throw new ConfigError(`no run to follow: none of ${paths.join(', ')} holds a finished run (${REPORT})`);
  const seen = new Set<string>();
  return found.filter((p) => {
    const key = resolve(p);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
