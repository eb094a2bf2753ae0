import { join } from 'node:path';
import type { ChangeSink } from '../../compare/changes.js';
import type { Standings } from '../../compare/standings.js';
import type { Quarantine } from '../../model/quarantine.js';
import { compareData } from '../../compare/compare.js';
import { checkComparable } from '../../compare/compatibility.js';
import { checkReport } from '../../compare/integrity.js';
import type { Comparison } from '../../compare/schema.js';
import { openReport } from '../../report/read.js';
import { compareSettingsOf } from '../../gate/options.js';
import { SCHEMA_VERSION } from '../../model/report.js';
import type { ReportData, ReportHead } from '../../model/source.js';

/**
 * `run --baseline`: the steps around the run, kept out of the command file. The baseline's results are read one at a
 * time; one with a question id twice, or whose results its summary does not count, is refused before anything is sent.
 */
export async function readBaseline(file: string): Promise<ReportData> {
  const data = await openReport(file);
  checkReport(file, data);
  return data;
}

/**
 * Refuses (exit 2, before anything is sent) a baseline of another schema major or another agent, unless forced.
 * Another dataset is the normal case (a pull request adds or edits questions): compare matches questions by id.
 */
export function checkBaseline(baseline: ReportHead, file: string, run: { agent: string }, force: boolean): void {
  checkComparable(baseline, { schemaVersion: SCHEMA_VERSION, run: { agent: run.agent } }, { base: file, head: 'this run' }, force);
}

/**
 * Compares the run with its baseline, both read one result at a time; every change goes to `changes`, and each of the
 * run's failures gets its standing against the baseline in `standings` (for junit.xml).
 */
export function compareWithBaseline(
  baseline: ReportData,
  run: ReportData,
  o: { baselineFile: string; dir: string; quarantine?: Quarantine | undefined; argv: Parameters<typeof compareSettingsOf>[0] & { force: boolean } },
  changes: ChangeSink,
  standings: Standings,
): Comparison {
  const files = { base: o.baselineFile, head: join(o.dir, 'report.json') };
  return compareData(baseline, run, { files, force: o.argv.force, ...compareSettingsOf(o.argv), ...(o.quarantine ? { quarantine: o.quarantine } : {}) }, changes, standings);
}
