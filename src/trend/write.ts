import { reportHtmlLink } from '../report/links.js';
import { parseFormatList, writeFiles } from '../report/write.js';
import { TREND_FORMAT_NAMES, TREND_FORMATS, type TrendFormat } from './render/index.js';
import type { Trend } from './schema.js';

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
