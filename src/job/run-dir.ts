import { rmdirSync, rmSync, statSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { AnswerEvalError, ConfigError, ReportWriteError } from '../errors.js';
import type { ReportData } from '../model/source.js';
import type { RenderOptions, ReportFormat } from '../report/formats.js';
import { appendStepSummary } from '../report/step-summary.js';
import { writeReports } from '../report/write.js';
import { lockDir } from '../run/lock.js';
import { ensureDir, reasonOf } from '../util/out-dir.js';
import { heldRun, heldRunError, newStaging, pendingOverwrite, publishRun, stagedFor } from './overwrite.js';
import type { JobContext } from './job.js';
import { oneLine } from '../util/terminal.js';

/**
 * Before anything is sent: makes sure the run's directory is a directory it can write into, and claims it
 * with a lock file until the process ends, so a second run into it refuses instead of mixing two journals.
 */
export async function claimRunDir({ out, atEnd }: JobContext, dir: string, what: string): Promise<void> {
  const created = await ensureDir(dir, what);
  const lock = await lockDir(dir, what);
  if (lock.tookOver) {
    out.printError(`answer-eval: ${lock.path}: took over the lock of pid ${lock.tookOver.pid} (since ${oneLine(String(lock.tookOver.startedAt))}), which is no longer running\n`);
  }
  atEnd(() => {
    lock.release();
    if (created) {
      try {
        rmdirSync(dir); // only when empty: a run refused before it wrote anything leaves no directory behind
      } catch {
        /* it holds the run's files */
      }
    }
  });
}

/** The run `run --resume PATH` continues: PATH's own, or PATH's unfinished --overwrite run; PATH may name that run's staging directory too. */
export async function locateResume({ out }: JobContext, path: string): Promise<{ dir: string; journalDir: string }> {
  if (statSync(path, { throwIfNoEntry: false })?.isDirectory() === false) {
    throw new ConfigError(`--resume ${path}: is a file, not a run's directory (expected the directory a run wrote its journal.jsonl to, e.g. --resume ${dirname(path)})`);
  }
  const staged = stagedFor(path);
  if (staged !== undefined) return { dir: staged, journalDir: path };
  const pending = await pendingOverwrite(path);
  if (pending === undefined) return { dir: path, journalDir: path };
  out.printError(`answer-eval: --resume ${path}: continuing its unfinished --overwrite run (journaled in ${pending}); it replaces the earlier run in ${path} once it completes\n`);
  return { dir: path, journalDir: pending };
}

/**
 * Where a new run into `dir` is journaled: `dir` itself when it holds no run. A run there is refused (exit 2, before
 * anything is sent), naming what it is and what to do; with --overwrite the new run goes to a staging directory
 * inside `dir`, and replaces the earlier run only once it has completed (see publishRun).
 */
export async function placeRun({ out, atEnd }: JobContext, dir: string, overwrite: boolean): Promise<string> {
  const held = await heldRun(dir);
  if (held === undefined) return dir;
  if (!overwrite) throw heldRunError(dir, '--out', held, 'choose a fresh --out (without one, each run gets its own reports/<timestamp>)');
  const staging = newStaging(dir, new Date());
  out.printError(`answer-eval: --overwrite: ${dir} holds ${held.words}; it stays as it is until this run has completed (written meanwhile to ${staging})\n`);
  atEnd(() => {
    // a run refused before it journaled anything leaves no staging directory behind
    for (const d of [staging, dirname(staging)]) {
      try {
        rmdirSync(d);
      } catch {
        /* it holds the run's files */
      }
    }
  });
  return staging;
}

/**
 * For a command that writes a report set (rescore, merge, report): claims `out` as a run does, and refuses it when it
 * holds a run (exit 2, before anything is written) unless --overwrite, whose report set is written beside it and put
 * in its place once every file is written (see publishRun); one not written whole is dropped, the earlier set kept
 * (and said). `inPlace`: `out` is where the report being rendered again lies (`report --from DIR`): its own files,
 * rewritten. `write` writes the set into the directory it is given and returns the paths written, where they are now.
 */
export async function claimReportDir(
  ctx: JobContext,
  out: string,
  o: { overwrite: boolean; command: string; inPlace?: boolean },
): Promise<{ write: (files: (dir: string) => Promise<string[]>) => Promise<string[]> }> {
  await claimRunDir(ctx, out, '--out');
  const held = o.inPlace ? undefined : await heldRun(out);
  if (held === undefined) return { write: (files) => files(out) };
  if (!o.overwrite) throw heldRunError(out, '--out', held, `give ${o.command} another --out`);
  const staging = newStaging(out, new Date());
  ctx.atEnd(() => {
    rmSync(staging, { recursive: true, force: true });
    try {
      rmdirSync(dirname(staging)); // when no other (a run's unfinished --overwrite) is there
    } catch {
      /* not empty, or gone */
    }
  });
  return {
    write: async (files) => {
      try {
        return (await files(staging)).map(await publishRun(staging, out));
      } catch (error) {
        if (!(error instanceof ReportWriteError)) throw error;
        throw new ReportWriteError(`${error.message}. --overwrite: nothing of the new reports is kept; ${out} holds ${held.words}, as it was`, [], error.failed);
      }
    },
  };
}

/** Writes each report on its own: the ones written, and the failure of those the disk refused, if any. */
export async function writeRunReports(data: ReportData, dir: string, formats: readonly ReportFormat[], options?: RenderOptions): Promise<{ written: string[]; failure?: ReportWriteError }> {
  try {
    return { written: await writeReports(data, dir, formats, options) };
  } catch (error) {
    if (!(error instanceof ReportWriteError)) throw error;
    return { written: error.written, failure: error };
  }
}

/** Appends summary.md to the job summary; one that cannot be appended is a warning, not a failure of the run. */
export const appendJobSummary = ({ io, out }: JobContext, data: ReportData): Promise<string | undefined> =>
  appendStepSummary(data, io.env).catch((error: unknown) => {
    out.printError(`answer-eval: warning: could not append the summary to $GITHUB_STEP_SUMMARY (${io.env['GITHUB_STEP_SUMMARY']}): ${reasonOf(error)}\n`);
    return undefined;
  });

/**
 * Reports the disk refused, named with what to do once there is space (exit 3), after the run's own stop reason. `dir`
 * holds the journal and the reports; `resumeDir` is the run's directory (`dir`, or the one an --overwrite run replaces).
 */
export function reportWriteFailure(failure: ReportWriteError, dir: string, written: readonly string[], stoppedBy: Error | undefined, resumeDir = dir): AnswerEvalError {
  const json = join(dir, 'report.json');
  const again = written.includes(json) ? ` (or answer-eval report --from ${json})` : '';
  return new AnswerEvalError(
    `${stoppedBy ? `${stoppedBy.message}\n` : ''}${failure.message}. ` +
      `Once there is space, answer-eval run --resume ${resumeDir} writes every report${again}; ` +
      `it asks only the questions its journal ${join(dir, 'journal.jsonl')} lacks`,
    failure.code,
    3,
  );
}

/**
 * reports/<timestamp> under `cwd` (as typed when `cwd` is the process's), or reports/<timestamp>-2, -3... when a run
 * of the same second has it: a new directory for every run.
 */
export async function defaultReportDir(at: Date, cwd: string): Promise<string> {
  const stamp = `reports/${at.toISOString().replace(/[:.]/g, '-').replace(/-\d{3}Z$/, 'Z')}`;
  const base = cwd === process.cwd() ? stamp : join(cwd, stamp);
  for (let n = 1; ; n++) {
    const dir = n === 1 ? base : `${base}-${n}`;
    if (!(await stat(dir).then(() => true, () => false))) return dir;
  }
}
