import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { NothingMeasuredError } from '../errors.js';
import { checkShards, mergeShards } from '../merge/merge.js';
import { shardResults } from '../merge/reports.js';
import { nothingMeasured } from '../model/measured.js';
import { renderConsoleSummary } from '../report/console.js';
import { readReportHead, reportFile } from '../report/read.js';
import { parseFormats, writeReports } from '../report/write.js';
import type { JobIo } from './io.js';
import { job, type JobResult } from './job.js';
import { claimReportDir } from './run-dir.js';

export interface MergeOptions {
  /** The report directories of the shards (or their report.json). */
  dirs: string[];
  /** Where the merged report set goes. */
  out: string;
  /** @default 'all' */
  format?: string | undefined;
  /** Merge shards that stopped early (their questions not asked count as not asked). @default false */
  allowPartial?: boolean | undefined;
  /** Replace the report set `out` holds. @default false */
  overwrite?: boolean | undefined;
}

/** `answer-eval merge`: the reports of --shard runs as one report set. */
export const merge = (o: MergeOptions, io?: JobIo): Promise<JobResult> =>
  job(io, { exitCode: 0 }, async (ctx) => {
    const { print } = ctx.out;
    const formats = parseFormats(o.format ?? 'all');
    const shards = await Promise.all(
      o.dirs.map(async (dir) => {
        // a shard's directory (or its report.json); one without a report.json says why, e.g. a shard that stopped early
        const path = existsSync(dir) ? await reportFile(dir) : join(dir, 'report.json');
        return { path, head: await readReportHead(path) };
      }),
    );
    checkShards(shards, { allowPartial: o.allowPartial ?? false });
    const data = mergeShards(shards, await shardResults(shards.map((s) => s.path)));
    const target = await claimReportDir(ctx, o.out, { overwrite: o.overwrite ?? false, command: 'merge' });
    const written = await target.write((dir) => writeReports(data, dir, formats));
    print(`${renderConsoleSummary(data.head)}\n  merged ${shards.length} shards\n  reports: ${written.join(', ')}\n`);
    // shards whose every question ended in error measured nothing together either: never a green exit
    const unmeasured = nothingMeasured(data.head);
    if (unmeasured !== undefined) throw new NothingMeasuredError(`${unmeasured}; the merged reports are written`);
  });
