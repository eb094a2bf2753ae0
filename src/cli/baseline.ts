import { join } from 'node:path';
import { compareReports } from '../compare/compare.js';
import { checkComparable } from '../compare/compatibility.js';
import { readReport } from '../report/read.js';
import { renderCompareConsole } from '../compare/render/console.js';
import { writeComparison } from '../compare/write.js';
import { datasetSha256 } from '../dataset/read.js';
import type { DatasetSource } from '../dataset/source.js';
import { regressionGates, type GateResult } from '../gate/gates.js';
import { compareSettingsOf, regressionGatesOf } from '../gate/options.js';
import { SCHEMA_VERSION, type Report } from '../model/report.js';

/** `run --baseline`: the steps around the run, kept out of the command file. */
export const readBaseline = (file: string): Promise<Report> => readReport(file);

/** Refuses (exit 2, before anything is sent) a baseline of another dataset, agent or schema major, unless forced. */
export async function checkBaseline(baseline: Report, file: string, run: { dataset: string | DatasetSource; agent: string }, force: boolean): Promise<void> {
  const sha256 = await datasetSha256(run.dataset);
  checkComparable(baseline, { schemaVersion: SCHEMA_VERSION, run: { agent: run.agent, dataset: { sha256 } } }, { base: file, head: 'this run' }, force);
}

/** Compares the run with its baseline, writes compare.* into the run's directory, prints a summary, returns the regression gates. */
export async function baselineGates(
  baseline: Report,
  report: Report,
  o: { baselineFile: string; dir: string; argv: Parameters<typeof regressionGatesOf>[0] & { force: boolean } },
): Promise<GateResult[]> {
  const comparison = compareReports(baseline, report, { files: { base: o.baselineFile, head: join(o.dir, 'report.json') }, force: o.argv.force, ...compareSettingsOf(o.argv) });
  const written = await writeComparison(comparison, o.dir);
  process.stdout.write(`${renderCompareConsole(comparison)}\n  reports: ${written.join(', ')}\n`);
  return regressionGates(comparison, regressionGatesOf(o.argv));
}
