import { rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { ConfigError } from '../errors.js';
import { writeChunks } from '../report/write.js';
import { TREND_FORMAT_NAMES, TREND_FORMATS, type TrendFormat } from './render/index.js';
import { mkdirs } from '../util/out-dir.js';
import type { Trend } from './schema.js';

/** Parses `--format html,md`; `all` or nothing means every format. */
export function parseTrendFormats(value: string | undefined): TrendFormat[] {
  if (value === undefined || value.trim() === '' || value.trim() === 'all') return TREND_FORMAT_NAMES;
  const names = value.split(',').map((s) => s.trim()).filter((s) => s !== '');
  for (const name of names) {
    if (!(name in TREND_FORMATS)) throw new ConfigError(`--format "${name}" is not a trend format (expected some of: ${TREND_FORMAT_NAMES.join(', ')})`);
  }
  return [...new Set(names)] as TrendFormat[];
}

/** Writes each format into `dir` through a temporary file; returns the paths written. */
export async function writeTrend(trend: Trend, dir: string, formats: readonly TrendFormat[] = TREND_FORMAT_NAMES): Promise<string[]> {
  await mkdirs(dir);
  const written: string[] = [];
  for (const format of formats) {
    const { file, render } = TREND_FORMATS[format];
    const path = join(dir, file);
    try {
      await writeChunks(`${path}.tmp`, render(trend));
    } catch (error) {
      await rm(`${path}.tmp`, { force: true });
      throw error;
    }
    await rename(`${path}.tmp`, path);
    written.push(path);
  }
  return written;
}
