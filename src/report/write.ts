import { rename, rm } from 'node:fs/promises';
import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import { join } from 'node:path';
import { ConfigError, ReportWriteError } from '../errors.js';
import { ensureDir, reasonOf } from '../util/out-dir.js';
import { createTemp } from '../util/temp-file.js';
import { ALL_FORMATS, REPORT_FORMATS, type RenderOptions, type ReportFormat } from './formats.js';
import type { ReportData } from '../model/source.js';
import { withMetrics } from '../score/metrics/index.js';

/** Parses `--format html,json` against a table of formats (`a report format`, `a trend format`); `all` or nothing means every one. */
export function parseFormatList<F extends string>(value: string | undefined, table: Record<F, unknown>, noun: string): F[] {
  const all = Object.keys(table) as F[];
  if (value === undefined || value.trim() === '' || value.trim() === 'all') return all;
  const names = value.split(',').map((s) => s.trim()).filter((s) => s !== '');
  if (names.length === 0) throw new ConfigError(`--format "${value}" names no format (expected some of: ${all.join(', ')}, or all)`);
  for (const name of names) {
    // own keys only: `toString` is in every object
    if (!Object.hasOwn(table, name)) throw new ConfigError(`--format "${name}" is not ${noun} (expected some of: ${all.join(', ')})`);
  }
  return [...new Set(names)] as F[];
}

/** Parses `--format html,json`; `all` or nothing means every format. */
export const parseFormats = (value: string | undefined): ReportFormat[] => parseFormatList(value, REPORT_FORMATS, 'a report format');

/** Joins small chunks up to about `size` characters, so the stream is not called once per line. */
function* batched(chunks: Iterable<string>, size = 1 << 16): Generator<string> {
  let pending: string[] = [];
  let length = 0;
  for (const chunk of chunks) {
    pending.push(chunk);
    length += chunk.length;
    if (length >= size) {
      yield pending.join('');
      pending = [];
      length = 0;
    }
  }
  if (length > 0) yield pending.join('');
}

/**
 * Writes the chunks to `path` through a temporary file made exclusively beside it (util/temp-file.ts: never through
 * a link planted there), renamed over it once whole, so a reader never sees half of it; waits for the stream to drain
 * whenever its buffer is full. On failure the temporary file is removed and `path` left as it was.
 */
export async function writeChunks(path: string, chunks: Iterable<string>): Promise<void> {
  const { tmp, handle } = await createTemp(path);
  const stream = handle.createWriteStream();
  try {
    for (const chunk of batched(chunks)) {
      if (!stream.write(chunk)) await once(stream, 'drain');
    }
    stream.end();
    await finished(stream);
    await rename(tmp, path);
  } catch (error) {
    stream.destroy();
    await rm(tmp, { force: true }).catch(() => {});
    throw error;
  }
}

/**
 * Writes each format into `dir` (through a temporary file, so a reader never sees half a report). A report
 * without metrics (an older report.json) gets them computed from its results first. Each format is written
 * on its own: when the file system refuses one (a full disk), the others are still written, then a
 * ReportWriteError names every file not written and why.
 */
export async function writeReports(report: ReportData, dir: string, formats: readonly ReportFormat[] = ALL_FORMATS, options: RenderOptions = {}): Promise<string[]> {
  const data = withMetrics(report);
  return writeFiles(dir, formats.map((format) => ({ file: REPORT_FORMATS[format].file, chunks: () => REPORT_FORMATS[format].render(data, options) })));
}

/**
 * Writes each file into `dir` (made if need be) through a temporary file, so a reader never sees half of one. Each
 * on its own: when the file system refuses one (a full disk), the others are still written, then a ReportWriteError
 * (exit 3) names every file not written and why. Returns the paths written.
 */
export async function writeFiles(dir: string, files: readonly { file: string; chunks: () => Iterable<string> }[]): Promise<string[]> {
  await ensureDir(dir, 'the report directory');
  const written: string[] = [];
  const failed: { path: string; cause: Error }[] = [];
  for (const { file, chunks } of files) {
    const path = join(dir, file);
    try {
      await writeChunks(path, chunks());
      written.push(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).syscall === undefined) throw error; // not the file system: a bug
      failed.push({ path, cause: error as Error });
    }
  }
  if (failed.length > 0) {
    const reasons = [...new Set(failed.map((f) => reasonOf(f.cause)))].join('; ');
    throw new ReportWriteError(
      `could not write ${failed.map((f) => f.path).join(', ')}: ${reasons}${written.length > 0 ? `; written: ${written.join(', ')}` : '; no report was written'}`,
      written,
      failed,
    );
  }
  return written;
}
