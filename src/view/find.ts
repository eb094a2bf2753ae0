import { readdir, realpath, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import type { ReportHead } from '../model/source.js';
import { HeadReader } from './head.js';

/** How deep under DIR runs are looked for (reports/nightly/2026-11-25/shard-1 is 3 levels). */
const MAX_DEPTH = 6;
/** Directories looked into at most: a DIR that is a whole disk is not walked for ever. */
const MAX_DIRS = 20_000;

/** A page answer-eval wrote, found under DIR: its path from DIR (`/`-separated) and when it was written. */
export interface FoundPage {
  path: string;
  modified: Date;
}

/** A run directory (one holding a report.json) and the pages beside it. */
export interface FoundRun {
  /** The directory, from DIR (`/`-separated; '' for DIR itself). */
  dir: string;
  /** Its report's head, or why it cannot be read. */
  head: ReportHead | undefined;
  unreadable?: string;
  report?: FoundPage;
  compare?: FoundPage;
  summary?: FoundPage;
}

/** Everything the index lists: runs newest first; trend and compare pages outside a run directory. */
export interface Found {
  runs: FoundRun[];
  trends: FoundPage[];
  compares: FoundPage[];
  /** True when the walk stopped at MAX_DIRS. */
  cut: boolean;
}

const posix = (path: string): string => path.split(sep).join('/');

/**
 * Walks DIR (MAX_DEPTH levels, neither hidden directories nor node_modules, no symbolic link followed) for the
 * run directories (a report.json) and the trend.html and compare.html pages; reads only the head of each report.json,
 * through `reader` (bounded, shared between requests). A report that cannot be read is listed with why.
 */
export async function findRuns(given: string, reader?: HeadReader): Promise<Found> {
  const root = await realpath(given);
  const heads = reader ?? new HeadReader(root);
  const files: { dir: string; names: Map<string, Date> }[] = [];
  let seen = 0;
  let cut = false;
  const walk = async (dir: string, depth: number): Promise<void> => {
    if (++seen > MAX_DIRS) {
      cut = true;
      return;
    }
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    const names = new Map<string, Date>();
    for (const e of entries) {
      if (e.isFile() && /^(?:report\.json|report\.html|compare\.html|summary\.md|trend\.html)$/.test(e.name)) {
        const info = await stat(join(dir, e.name)).catch(() => undefined);
        if (info) names.set(e.name, info.mtime);
      }
    }
    if (names.size > 0) files.push({ dir, names });
    if (depth >= MAX_DEPTH) return;
    for (const e of entries.filter((e) => e.isDirectory() && !e.name.startsWith('.') && e.name !== 'node_modules').sort((a, b) => a.name.localeCompare(b.name))) {
      await walk(join(dir, e.name), depth + 1);
    }
  };
  await walk(root, 0);

  const page = (dir: string, names: Map<string, Date>, name: string): FoundPage | undefined => {
    const modified = names.get(name);
    return modified === undefined ? undefined : { path: posix(relative(root, join(dir, name))), modified };
  };
  const runs: FoundRun[] = [];
  // one at a time: heads are small, and remembered between requests
  for (const f of files.filter((f) => f.names.has('report.json'))) {
    const { head, unreadable } = await heads.head(relative(root, join(f.dir, 'report.json')).split(sep));
    runs.push({
      dir: posix(relative(root, f.dir)),
      head,
      ...(unreadable !== undefined ? { unreadable } : {}),
      ...optional('report', page(f.dir, f.names, 'report.html')),
      ...optional('compare', page(f.dir, f.names, 'compare.html')),
      ...optional('summary', page(f.dir, f.names, 'summary.md')),
    });
  }
  const started = (r: FoundRun): number => (r.head ? Date.parse(r.head.run.startedAt) : Number.NEGATIVE_INFINITY) || 0;
  runs.sort((a, b) => started(b) - started(a) || a.dir.localeCompare(b.dir));
  const newest = (a: FoundPage, b: FoundPage): number => b.modified.getTime() - a.modified.getTime();
  const trends = files.flatMap((f) => page(f.dir, f.names, 'trend.html') ?? []).sort(newest);
  const compares = files.filter((f) => !f.names.has('report.json')).flatMap((f) => page(f.dir, f.names, 'compare.html') ?? []).sort(newest);
  return { runs, trends, compares, cut };
}

const optional = <K extends string>(key: K, value: FoundPage | undefined): Partial<Record<K, FoundPage>> => (value === undefined ? {} : ({ [key]: value } as Record<K, FoundPage>));
