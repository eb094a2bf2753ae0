import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { ConfigError } from '../errors.js';
import { QUARANTINE_FILE } from '../model/quarantine.js';
import { reportHtmlLink } from '../report/links.js';
import { parseFormatList, writeFiles } from '../report/write.js';
import { TREND_FORMAT_NAMES, TREND_FORMATS, type TrendFormat } from './render/index.js';
import { writtenByTrend } from './render/quarantine.js';
import type { Trend } from './schema.js';
import { readBounded } from '../util/bounded-read.js';

/** Parses `--format html,md`; `all` or nothing means every format. */
export const parseTrendFormats = (value: string | undefined): TrendFormat[] => parseFormatList(value, TREND_FORMATS, 'a trend format');

/**
 * Writes each format into `dir` through a temporary file (a full disk: ReportWriteError); returns the paths written.
 * trend.html links each run's report.html where there is one.
 */
export function writeTrend(trend: Trend, dir: string, formats: readonly TrendFormat[] = TREND_FORMAT_NAMES): Promise<string[]> {
  const reports = trend.runs.map((r) => reportHtmlLink(r.path, dir));
  return writeFiles(dir, formats.map((format) => ({ file: TREND_FORMATS[format].file, chunks: () => TREND_FORMATS[format].render(trend, { reports }) })));
}

/** The largest quarantine.txt of trend's own that is read back: one of its own lists the flaky questions of a set. */
const MAX_OWN_QUARANTINE_BYTES = 64 * 1024 * 1024;

/**
 * Refuses (ConfigError, exit 2), before anything is read or written, an --out holding a quarantine.txt that trend
 * would write over but did not write itself, or that was changed since: a file reviewed by hand, or the one
 * `run --repeat` wrote into its run directory. trend's own file, unchanged, is written over as trend.* are.
 */
export async function checkQuarantineOut(dir: string, formats: readonly TrendFormat[]): Promise<void> {
  if (!formats.includes('quarantine')) return;
  const path = join(dir, QUARANTINE_FILE);
  // trend writes a regular file: anything else there (a FIFO, a device, a link to one) is not its own, and is not read
  const info = await lstat(path).catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' || error.code === 'ENOTDIR' ? null : undefined));
  if (info === null) return;
  const text = info?.isFile() ? await readBounded(path, { maxBytes: MAX_OWN_QUARANTINE_BYTES, text: true }).then((b) => b.toString('utf8'), () => undefined) : undefined;
  if (text !== undefined && writtenByTrend(text)) return;
  throw new ConfigError(
    `--out ${dir} holds ${path}, which trend did not write or which was changed since (reviewed by hand? written by run --repeat?); nothing was written. ` +
      'To keep it: choose another --out, or leave quarantine out of --format (e.g. --format html,md,json). To replace it: delete it.',
  );
}
