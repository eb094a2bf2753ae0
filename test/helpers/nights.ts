import { join } from 'node:path';
import type { Report } from '../../src/model/report.js';
import { fromReport } from '../../src/model/source.js';
import { writeReports } from '../../src/report/write.js';

/**
 * `r` written as the nightly run of November `day`, 2026, 02:00 UTC: its report.json in `dir/nights/NAME`, with
 * `run` laid over its run (a status, a stop reason). Returns the run's directory.
 */
export async function writeNight(dir: string, name: string, day: number, r: Report, run: Partial<Report['run']> = {}): Promise<string> {
  const at = new Date(Date.UTC(2026, 10, day, 2)).toISOString();
  const out = join(dir, 'nights', name);
  await writeReports(fromReport({ ...r, run: { ...r.run, startedAt: at, finishedAt: at, ...run } }), out, ['json']);
  return out;
}
