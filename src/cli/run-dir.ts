import { rmdirSync } from 'node:fs';
import { join } from 'node:path';
import { AnswerEvalError, ReportWriteError } from '../errors.js';
import type { ReportData } from '../model/source.js';
import { renderConsoleSummary } from '../report/console.js';
import type { ReportFormat } from '../report/formats.js';
import { appendStepSummary } from '../report/step-summary.js';
import { writeReports } from '../report/write.js';
import { lockDir } from '../run/lock.js';
import { ensureDir, reasonOf } from '../util/out-dir.js';

/**
 * Before anything is sent: makes sure the run's directory is a directory it can write into, and claims it
 * with a lock file until the process ends, so a second run into it refuses instead of mixing two journals.
 */
export async function claimRunDir(dir: string, what: string): Promise<void> {
  const created = await ensureDir(dir, what);
  const lock = await lockDir(dir, what);
  if (lock.tookOver) {
    process.stderr.write(`answer-eval: ${lock.path}: took over the lock of pid ${lock.tookOver.pid} (since ${lock.tookOver.startedAt}), which is no longer running\n`);
  }
  process.once('exit', () => {
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

/**
 * Writes the run's reports, each on its own, and the job summary, prints the console summary, then stops
 * with the run's own reason, if any. Reports the disk refused are named with what to do once there is space;
 * a job summary that cannot be appended is a warning.
 */
export async function reportRun(data: ReportData, dir: string, formats: ReportFormat[], stoppedBy: Error | undefined): Promise<void> {
  let written: string[];
  let failure: ReportWriteError | undefined;
  try {
    written = await writeReports(data, dir, formats);
  } catch (error) {
    if (!(error instanceof ReportWriteError)) throw error;
    failure = error;
    written = error.written;
  }
  const stepSummary = await appendStepSummary(data).catch((error: unknown) => {
    process.stderr.write(`answer-eval: warning: could not append the summary to $GITHUB_STEP_SUMMARY (${process.env['GITHUB_STEP_SUMMARY']}): ${reasonOf(error)}\n`);
    return undefined;
  });
  if (stepSummary !== undefined) written.push(stepSummary);
  process.stdout.write(`${renderConsoleSummary(data.head)}\n  reports: ${written.length > 0 ? written.join(', ') : 'none'}\n`);
  if (failure) {
    const json = join(dir, 'report.json');
    const again = written.includes(json) ? ` (or answer-eval report --from ${json})` : '';
    throw new AnswerEvalError(
      `${stoppedBy ? `${stoppedBy.message}\n` : ''}${failure.message}. ` +
        `Once there is space, answer-eval run --resume ${dir} writes every report${again}; ` +
        `it asks only the questions its journal ${join(dir, 'journal.jsonl')} lacks`,
      failure.code,
      3,
    );
  }
  if (stoppedBy) throw stoppedBy;
}
