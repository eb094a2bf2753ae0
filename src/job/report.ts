import { dirname, resolve } from 'node:path';
import { openReport, reportFile } from '../report/read.js';
import { thresholdOptionsOf } from '../report/threshold-options.js';
import { parseFormats, writeReports } from '../report/write.js';
import { readAliases } from '../dataset/aliases.js';
import { loadKnowledgeBase } from '../engine/kb.js';
import type { ReportHead } from '../model/source.js';
import { runAliases } from '../rescore/rescore.js';
import { coverageRefsOf, entriesOf } from '../run/knowledge-base.js';
import type { CoverageBase } from '../score/coverage.js';
import { scoreResults } from '../score/metrics/index.js';
import type { JobIo } from './io.js';
import { job, type JobResult } from './job.js';
import { claimReportDir } from './run-dir.js';

export interface ReportOptions {
  /** A report.json, or the directory a run wrote it to. */
  from: string;
  /** @default the report's directory */
  out?: string | undefined;
  /** @default 'all' */
  format?: string | undefined;
  /** A knowledge base: the per-entry metrics and the coverage are computed again with it. */
  kb?: string | undefined;
  overwrite?: boolean | undefined;
  oosShare?: number | undefined;
  keepAccuracy?: number | undefined;
}

/** `answer-eval report`: renders the reports again from a saved report.json. */
export const report = (o: ReportOptions, io?: JobIo): Promise<JobResult> =>
  job(io, { exitCode: 0 }, async (ctx) => {
    const { print } = ctx.out;
    const from = await reportFile(o.from);
    const out = o.out ?? dirname(from);
    // the results are read from --from at every pass: a report.json rewritten in place is written last
    const inPlace = resolve(out, 'report.json') === resolve(from);
    const formats = parseFormats(o.format ?? 'all').sort((a, b) => (inPlace ? Number(a === 'json') - Number(b === 'json') : 0));
    const data = await openReport(from);
    // new advice options or a knowledge base: the metrics are computed again, from the results
    const thresholds = thresholdOptionsOf(o);
    if (thresholds !== undefined || o.kb !== undefined) {
      const kb = o.kb === undefined ? undefined : await loadKnowledgeBase(o.kb);
      const coverage = kb && (await coverageBase(data.head, from, { knowledgeBase: kb.file, entries: coverageRefsOf(kb) }));
      const scored = scoreResults(data.results, { ...(kb ? { knowledgeBase: entriesOf(kb) } : {}), ...(thresholds ? { thresholds } : {}), ...(coverage ? { coverage } : {}) });
      data.head = { ...data.head, metrics: scored.metrics, ...(scored.coverage ? { coverage: scored.coverage } : {}) };
    }
    // the report's own directory is rewritten as it is; another that holds a run is refused, unless --overwrite
    const target = await claimReportDir(ctx, out, { overwrite: o.overwrite ?? false, command: 'report', inPlace });
    const written = await target.write((dir) => writeReports(data, dir, formats));
    print(`reports: ${written.join(', ')}\n`);
  });

/** The coverage of a knowledge base given now, read as the run read its expectations and answers: its alias file, and its floor when known. */
async function coverageBase(head: ReportHead, from: string, kb: Pick<CoverageBase, 'knowledgeBase' | 'entries'>): Promise<CoverageBase> {
  const aliasFile = head.run.rescored ? (head.run.rescored.aliases ?? undefined) : await runAliases(from);
  const floors = [head.run.rescored?.floor, head.run.engine?.floorThreshold].filter((f): f is number => typeof f === 'number');
  return { ...kb, ...(aliasFile !== undefined ? { aliases: await readAliases(aliasFile) } : {}), ...(floors.length > 0 ? { floor: Math.max(...floors) } : {}) };
}
