import { dirname, join } from 'node:path';
import { readAliases } from '../dataset/aliases.js';
import { trecQrels, trecRun } from '../export/trec.js';
import { openReport, reportFile } from '../report/read.js';
import { writeChunks } from '../report/write.js';
import { ensureDir } from '../util/out-dir.js';
import type { JobIo } from './io.js';
import { job, type JobResult } from './job.js';

export interface ExportOptions {
  /** A report.json, or the directory a run wrote it to. */
  from: string;
  /** Where run.trec and qrels.trec go. @default the report's directory */
  out?: string | undefined;
  /** The run's name in run.trec. */
  runId: string;
  /** A CSV of old,new sequence numbers applied to the expectations. */
  aliases?: string | undefined;
}

/** `answer-eval export`: a report as a TREC run and qrels, a question at a time (a report of any size in bounded memory). */
export const exportTrec = (o: ExportOptions, io?: JobIo): Promise<JobResult> =>
  job(io, { exitCode: 0 }, async (ctx) => {
    const { print } = ctx.out;
    const from = await reportFile(o.from);
    const { results } = await openReport(from);
    const aliases = o.aliases === undefined ? undefined : await readAliases(o.aliases);
    const dir = o.out ?? dirname(from);
    await ensureDir(dir, '--out');
    const files = [join(dir, 'run.trec'), join(dir, 'qrels.trec')] as const;
    await writeChunks(files[0], trecRun(results, o.runId));
    await writeChunks(files[1], trecQrels(results, aliases));
    print(`wrote ${files.join(', ')}\n`);
  });
