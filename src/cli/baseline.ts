import { join } from 'node:path';
import type { ChangeSink } from '../compare/changes.js';
import { compareData } from '../compare/compare.js';
import { checkComparable } from '../compare/compatibility.js';
import type { Comparison } from '../compare/schema.js';
import { openReport } from '../report/read.js';
import { compareSettingsOf } from '../gate/options.js';
import { SCHEMA_VERSION } from '../model/report.js';
import type { ReportData, ReportHead } from '../model/source.js';

/** `run --baseline`: the steps around the run, kept out of the command file. The baseline's results are read one at a time. */
export const readBaseline = (file: string): Promise<ReportData> => openReport(file);

/**
 * Refuses (exit 2, before anything is sent) a baseline of another schema major or another agent, unless forced.
 * Another dataset is the normal case (a pull request adds or edits questions): compare matches questions by id.
 */
export function checkBaseline(baseline: ReportHead, file: string, run: { agent: string }, force: boolean): void {
  checkComparable(baseline, { schemaVersion: SCHEMA_VERSION, run: { agent: run.agent } }, { base: file, head: 'this run' }, force);
}

/** Compares the run with its baseline, both read one result at a time; every change goes to `changes`. */
export function compareWithBaseline(
  baseline: ReportData,
  run: ReportData,
  o: { baselineFile: string; dir: string; argv: Parameters<typeof compareSettingsOf>[0] & { force: boolean } },
  changes: ChangeSink,
): Comparison {
  return compareData(baseline, run, { files: { base: o.baselineFile, head: join(o.dir, 'report.json') }, force: o.argv.force, ...compareSettingsOf(o.argv) }, changes);
}
