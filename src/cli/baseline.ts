import { join } from 'node:path';
import { compareReports } from '../compare/compare.js';
import { checkComparable } from '../compare/compatibility.js';
import type { Comparison } from '../compare/schema.js';
import { readReport } from '../report/read.js';
import { compareSettingsOf } from '../gate/options.js';
import { SCHEMA_VERSION, type Report } from '../model/report.js';

/** `run --baseline`: the steps around the run, kept out of the command file. */
export const readBaseline = (file: string): Promise<Report> => readReport(file);

/**
 * Refuses (exit 2, before anything is sent) a baseline of another schema major or another agent, unless forced.
 * Another dataset is the normal case (a pull request adds or edits questions): compare matches questions by id.
 */
export function checkBaseline(baseline: Report, file: string, run: { agent: string }, force: boolean): void {
  checkComparable(baseline, { schemaVersion: SCHEMA_VERSION, run: { agent: run.agent } }, { base: file, head: 'this run' }, force);
}

/** Compares the run with its baseline (both held in memory). */
export function compareWithBaseline(
  baseline: Report,
  report: Report,
  o: { baselineFile: string; dir: string; argv: Parameters<typeof compareSettingsOf>[0] & { force: boolean } },
): Comparison {
  return compareReports(baseline, report, { files: { base: o.baselineFile, head: join(o.dir, 'report.json') }, force: o.argv.force, ...compareSettingsOf(o.argv) });
}
