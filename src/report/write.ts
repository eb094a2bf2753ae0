import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ConfigError } from '../errors.js';
import { ALL_FORMATS, REPORT_FORMATS, type ReportFormat } from './formats.js';
import type { Report } from './schema.js';

/** Parses `--format html,json`; `all` or nothing means every format. */
export function parseFormats(value: string | undefined): ReportFormat[] {
  if (value === undefined || value.trim() === '' || value.trim() === 'all') return ALL_FORMATS;
  const names = value.split(',').map((s) => s.trim()).filter((s) => s !== '');
  for (const name of names) {
    if (!(name in REPORT_FORMATS)) throw new ConfigError(`--format "${name}" is not a report format (expected some of: ${ALL_FORMATS.join(', ')})`);
  }
  return [...new Set(names)] as ReportFormat[];
}

/** Writes each format into `dir` (through a temporary file, so a reader never sees half a report). */
export async function writeReports(report: Report, dir: string, formats: readonly ReportFormat[] = ALL_FORMATS): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const written: string[] = [];
  for (const format of formats) {
    const { file, render } = REPORT_FORMATS[format];
    const path = join(dir, file);
    await writeFile(`${path}.tmp`, render(report));
    await rename(`${path}.tmp`, path);
    written.push(path);
  }
  return written;
}
