import type { AnswerEvalError } from '../../errors.js';
import { SCHEMA_VERSION, type Report } from '../../model/report.js';
import { toReport, type ReportData } from '../../model/source.js';
import { scoreResults } from '../../score/metrics/index.js';
import { TOOL_NAME, TOOL_VERSION } from '../../version.js';
import { runInfo } from '../head.js';
import { maskedError, toError } from '../stop-reasons.js';
import type { Asked } from './ask.js';
import type { Plan } from './plan.js';
import type { Recorder } from './record.js';

export interface RunOutcome {
  /** The report, its results read back from the journal when the run kept one: fit for any size. */
  data: ReportData;
  /**
   * The whole report in memory, every result read (from the journal, when there is one: read it before
   * anything rewrites that journal): for small runs, scripts and tests.
   */
  readonly report: Report;
  /** Why the run stopped early (the report is then partial); undefined when it completed. */
  stoppedBy?: AnswerEvalError | Error;
}

/**
 * Stage 5, summarise: why the run stopped, if it stopped early (a journal that could not be written first), what it
 * was and did (`run`), and its results scored, read back in dataset order (from the journal, when there is one).
 */
export async function summarise(plan: Plan, record: Recorder, asked: Asked): Promise<RunOutcome> {
  const { o } = plan;
  const journalError = await record.failure(o.resumeDir ?? o.journalDir!);
  const stoppedBy = journalError ?? (asked.stoppedBy === undefined ? undefined : maskedError(toError(asked.stoppedBy), plan.secrets));
  const results = record.results();
  const run = runInfo(plan.dataset, o, {
    startedAt: record.startedAt,
    finishedAt: asked.finishedAt,
    total: plan.total,
    finished: record.finished,
    stoppedBy,
    fromJournal: record.fromJournal,
    asked: plan.toAsk,
    dropped: plan.prior?.dropped ?? 0,
    unaskedRepeats: record.repeats?.missing ?? 0,
  });
  const data: ReportData = {
    head: {
      schemaVersion: SCHEMA_VERSION,
      tool: { name: TOOL_NAME, version: TOOL_VERSION },
      run,
      ...scoreResults(results, {
        ...(plan.knowledgeBase ? { knowledgeBase: plan.knowledgeBase } : {}),
        ...(o.thresholds ? { thresholds: o.thresholds } : {}),
        ...(plan.coverage ? { coverage: plan.coverage } : {}),
      }),
    },
    results,
  };
  let report: Report | undefined;
  const outcome: RunOutcome = {
    data,
    get report() {
      return (report ??= toReport(data));
    },
  };
  if (stoppedBy) outcome.stoppedBy = stoppedBy;
  return outcome;
}
