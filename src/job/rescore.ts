import { resolve } from 'node:path';
import { ConfigError, NothingMeasuredError } from '../errors.js';
import { nothingMeasured } from '../model/measured.js';
import { renderConsoleSummary } from '../report/console.js';
import { reportFile } from '../report/read.js';
import { parseFormats, writeReports } from '../report/write.js';
import { rescoreReport } from '../rescore/rescore.js';
import { unseenExpectations, unseenNotes } from '../score/unseen.js';
import type { JobIo } from './io.js';
import { job, type JobResult } from './job.js';
import { claimReportDir } from './run-dir.js';

export interface RescoreOptions {
  /** A run directory (its report.json) or a report.json. */
  from: string;
  /** Where the rescored reports go (not the run directory itself). */
  out: string;
  /** A corrected dataset: the run's ids with changed expectations. @default the expectations the run recorded */
  dataset?: string | undefined;
  /** A CSV of old,new sequence numbers. @default the run's */
  aliases?: string | undefined;
  /** Drop answers scoring below this, as if the service had refused them. */
  floor?: number | undefined;
  /** @default 'all' */
  format?: string | undefined;
  overwrite?: boolean | undefined;
}

/** `answer-eval rescore`: the answers a run received judged again, without a request. */
export const rescore = (o: RescoreOptions, io?: JobIo): Promise<JobResult> =>
  job(io, { exitCode: 0 }, async (ctx) => {
    const { print, printError } = ctx.out;
    const formats = parseFormats(o.format ?? 'all');
    const from = await reportFile(o.from);
    // the results are read from the original report at every pass: it must not be replaced while they are
    if (resolve(o.out, 'report.json') === resolve(from)) throw new ConfigError(`--out ${o.out} is where ${from} is: rescore into another directory`);
    const data = await rescoreReport(from, {
      ...(o.dataset !== undefined ? { dataset: o.dataset } : {}),
      ...(o.aliases !== undefined ? { aliases: o.aliases } : {}),
      ...(o.floor !== undefined ? { floor: o.floor } : {}),
    });
    const target = await claimReportDir(ctx, o.out, { overwrite: o.overwrite ?? false, command: 'rescore' });
    const written = await target.write((dir) => writeReports(data, dir, formats));
    const r = data.head.run.rescored!;
    const what = [
      r.dataset.from === r.dataset.to ? 'same dataset' : `dataset sha256 ${r.dataset.from.slice(0, 12)}… → ${r.dataset.to.slice(0, 12)}…`,
      r.aliases === null ? 'no alias file' : `aliases ${r.aliases}`,
      r.floor === null ? 'no floor' : `floor ${r.floor}`,
      ...(r.leftOut > 0 ? [`${r.leftOut} question(s) left out (not in the dataset)`] : []),
    ];
    print(`${renderConsoleSummary(data.head)}\n  rescored ${from}: ${what.join(', ')}\n  reports: ${written.join(', ')}\n`);
    for (const note of unseenNotes(unseenExpectations(data.results), o.dataset ?? data.head.run.dataset.path)) printError(`answer-eval: warning: ${note}\n`);
    // answers that were all errors judge to nothing, however they are judged again
    const unmeasured = nothingMeasured(data.head);
    if (unmeasured !== undefined) throw new NothingMeasuredError(`${unmeasured}; the rescored reports are written`);
  });
