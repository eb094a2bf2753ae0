import { rmdirSync } from 'node:fs';
import { join } from 'node:path';
import { AnswerEvalError, ReportWriteError } from '../errors.js';
import type { ReportData } from '../model/source.js';
import type { ReportFormat } from '../report/formats.js';
import { appendStepSummary } from '../report/step-summary.js';
import { writeReports } from '../report/write.js';
import { lockDir } from '../run/lock.js';
import { ensureDir, reasonOf } from '../util/out-dir.js';
import { printError } from './output.js';
import { oneLine } from '../util/terminal.js';

/**
 * Before anything is sent: makes sure the run's directory is a directory it can write into, and claims it
 * with a lock file until the process ends, so a second run into it refuses instead of mixing two journals.
 */
export async function claimRunDir(dir: string, what: string): Promise<void> {
  const created = await ensureDir(dir, what);
  const lock = await lockDir(dir, what);
  if (lock.tookOver) {
    printError(`answer-eval: ${lock.path}: took over the lock of pid ${lock.tookOver.pid} (since ${oneLine(String(lock.tookOver.startedAt))}), which is no longer running\n`);
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

/** Writes each report on its own: the ones written, and the failure of those the disk refused, if any. */
export async function writeRunReports(data: ReportData, dir: string, formats: readonly ReportFormat[]): Promise<{ written: string[]; failure?: ReportWriteError }> {
  try {
    return { written: await writeReports(data, dir, formats) };
  } catch (error) {
    if (!(error instanceof ReportWriteError)) throw error;
    return { written: error.written, failure: error };
  }
}

/** Appends summary.md to the job summary; one that cannot be appended is a warning, not a failure of the run. */
export const appendJobSummary = (data: ReportData): Promise<string | undefined> =>
  appendStepSummary(data).catch((error: unknown) => {
    printError(`answer-eval: warning: could not append the summary to $GITHUB_STEP_SUMMARY (${process.env['GITHUB_STEP_SUMMARY']}): ${reasonOf(error)}\n`);
    return undefined;
  });

/** Reports the disk refused, named with what to do once there is space (exit 3), after the run's own stop reason. */
export function reportWriteFailure(failure: ReportWriteError, dir: string, written: readonly string[], stoppedBy: Error | undefined): AnswerEvalError {
  const json = join(dir, 'report.json');
  const again = written.includes(json) ? ` (or answer-eval report --from ${json})` : '';
  return new AnswerEvalError(
    `${stoppedBy ? `${stoppedBy.message}\n` : ''}${failure.message}. ` +
      `Once there is space, answer-eval run --resume ${dir} writes every report${again}; ` +
      `it asks only the questions its journal ${join(dir, 'journal.jsonl')} lacks`,
    failure.code,
    3,
  );
}
