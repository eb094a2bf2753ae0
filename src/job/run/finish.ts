import { join } from 'node:path';
import { ChangeFile } from '../../compare/changes.js';
import { renderCompareConsole } from '../../compare/render/console.js';
import { CHANGES_FILE } from '../../compare/schema.js';
import { writeComparison } from '../../compare/write.js';
import { GateNotJudgedError, NothingMeasuredError, ReportWriteError } from '../../errors.js';
import { consistencyGate } from '../../gate/consistency.js';
import { conversationGate } from '../../gate/conversations.js';
import { coverageGate } from '../../gate/coverage.js';
import { nothingMeasured } from '../../model/measured.js';
import { qualityGatesOf, regressionGatesOf, wantsRegressionGates } from '../../gate/options.js';
import { nothingCompared, uncompared, unjudged } from '../../gate/gates.js';
import { comparisonWithVerdict, judge, withVerdict } from '../../gate/verdict.js';
import type { ReportData } from '../../model/source.js';
import { isCircuitBreak } from '../../model/stop.js';
import { renderConsoleSummary } from '../../report/console.js';
import type { ReportFormat } from '../../report/formats.js';
import type { RunOutcome } from '../../run/run.js';
import { compareWithBaseline } from './baseline.js';
import { Standings } from '../../compare/standings.js';
import { QUARANTINE_FILE, type Quarantine } from '../../model/quarantine.js';
import { renderRepeatQuarantine } from '../../report/quarantine.js';
import { writeFiles } from '../../report/write.js';
import { unknownQuarantined } from '../quarantine.js';
import { enforceGates } from '../gates.js';
import type { QuestionResult } from '../../model/report.js';
import type { Verdict } from '../../model/verdict.js';
import { appendJobSummary, reportWriteFailure, writeRunReports } from '../run-dir.js';
import { publishRun } from '../overwrite.js';
import type { JobContext } from '../job.js';
import { unseenExpectations, unseenNotes } from '../../score/unseen.js';

type GateArgs = Parameters<typeof qualityGatesOf>[0] &
  Parameters<typeof compareWithBaseline>[2]['argv'] & { minConsistency?: number | undefined; minConversationPassRate?: number | undefined };

/**
 * What `run` does once the questions are asked: judges the gates (unless the run stopped early or measured
 * nothing), writes every report carrying the verdict (with --baseline, compare.* too), appends summary.md to the
 * job summary (a failure to append it is a warning), prints the summary; then throws what decides the exit code:
 * reports the disk refused (3, saying how to write them once there is space), the stop reason (3), nothing
 * measured (3), a failed gate (1).
 */
export async function finishRun(
  ctx: JobContext,
  outcome: RunOutcome,
  o: {
    dir: string;
    formats: readonly ReportFormat[];
    argv: GateArgs;
    baseline?: { data: ReportData; file: string; quarantine?: Quarantine | undefined };
    resume?: string;
    /** An --overwrite run: `dir` is its staging directory, published over this one's earlier run once it has completed. */
    replaces?: string;
    /** The expectations were checked against a knowledge base before the run (so the answers need not be searched for them). */
    kbChecked?: boolean;
    /** Told the verdict of the gates once judged (before the reports are written). */
    onVerdict?: (verdict: Verdict) => void;
  },
): Promise<void> {
  const { data, stoppedBy } = outcome;
  const unmeasured = stoppedBy === undefined ? nothingMeasured(data.head, { errorRateGated: o.argv.maxErrorRate !== undefined }) : undefined;
  const gated = stoppedBy === undefined && unmeasured === undefined;
  // compared before the reports are written (they may rewrite the journal the results are read from); every change
  // goes to changes.jsonl as it is found
  const changes = gated && o.baseline ? new ChangeFile(join(o.dir, CHANGES_FILE)) : undefined;
  try {
    await finish(ctx, outcome, o, { gated, unmeasured, changes });
  } finally {
    changes?.discard(); // nothing left behind when the comparison was not written
  }
}

async function finish(
  ctx: JobContext,
  outcome: RunOutcome,
  o: Parameters<typeof finishRun>[2],
  { gated, unmeasured, changes }: { gated: boolean; unmeasured: string | undefined; changes: ChangeFile | undefined },
): Promise<void> {
  const { print, printError } = ctx.out;
  const { data, stoppedBy } = outcome;
  const standings = changes && o.baseline ? new Standings(o.baseline.file) : undefined;
  const comparison =
    changes && o.baseline && standings
      ? compareWithBaseline(o.baseline.data, data, { baselineFile: o.baseline.file, dir: o.dir, quarantine: o.baseline.quarantine, argv: o.argv }, changes, standings)
      : undefined;
  const more = [
    ...(o.argv.minConsistency !== undefined ? [consistencyGate(data.head.metrics?.consistency, o.argv.minConsistency)] : []),
    ...(o.argv.minConversationPassRate !== undefined ? [conversationGate(data.head.metrics?.conversations, o.argv.minConversationPassRate)] : []),
    ...(o.argv.minCoverage !== undefined ? [coverageGate(data.head.coverage, o.argv.minCoverage)] : []),
  ];
  const verdict = gated ? judge(data.head.summary, comparison, { quality: qualityGatesOf(o.argv), regression: regressionGatesOf(o.argv) }, more) : undefined;
  if (verdict) o.onVerdict?.(verdict);
  const judged = { head: withVerdict(data.head, verdict), results: data.results };

  const reports = await writeRunReports(judged, o.dir, o.formats, { baseline: standings });
  const { written } = reports;
  const failure = reports.failure ?? (await writeRepeatQuarantine(data, o.dir, written));
  // an --overwrite run replaces the earlier one only once it has completed; until then the earlier run stays whole
  const complete = !failure && !stoppedBy && unmeasured === undefined;
  const publishedIn = o.replaces !== undefined && complete ? o.replaces : o.dir; // where compare.html links from
  const compared = comparison ? await writeComparison(comparisonWithVerdict(comparison, verdict), o.dir, changes, { publishedIn }) : [];
  const stepSummary = await appendJobSummary(ctx, judged);
  const unseen = o.kbChecked ? [] : unseenNotes(unseenExpectations(data.results), data.head.run.dataset.path);
  // last: the results are read from the journal, which this moves
  const where = o.replaces === undefined ? (p: string) => p : await replaceOrKeep(ctx, o.dir, o.replaces, { complete, resume: o.resume });
  const shown = [...written.map(where), ...(stepSummary !== undefined ? [stepSummary] : [])];
  print(`${renderConsoleSummary(judged.head)}\n  reports: ${shown.length > 0 ? shown.join(', ') : 'none'}\n`);
  for (const note of unseen) printError(`answer-eval: warning: ${note}\n`);
  if (comparison) {
    for (const line of unknownQuarantined(comparison, o.baseline?.quarantine)) printError(`${line}\n`);
    print(`${renderCompareConsole(comparison)}\n  reports: ${compared.map(where).join(', ')}\n`);
    // a regression gate fails on it and says so; without one, the empty comparison is still not passed over in silence
    if (nothingCompared(comparison) && !wantsRegressionGates(o.argv)) printError(`answer-eval: --baseline ${o.baseline?.file}: ${uncompared(comparison)}\n`);
  }
  if (failure) throw reportWriteFailure(failure, o.dir, written, stoppedBy, o.replaces);
  const sayRerun = () => printError(`answer-eval: once the service answers again, continue with: ${o.resume} --rerun errors\n`);
  if (stoppedBy) {
    // the circuit breaker stopped on errors the journal keeps: once the service is back, they are asked again too
    if (o.resume !== undefined && isCircuitBreak(stoppedBy.message)) sayRerun();
    throw stoppedBy;
  }
  if (unmeasured !== undefined) {
    // some answered: the service works at times, so asking the errors again may finish the run
    if (o.resume !== undefined && data.head.summary.outcomes.error < data.head.summary.total) sayRerun();
    throw new NothingMeasuredError(`${unmeasured}${mostCommonError(data.results)}`);
  }
  const errors = data.head.summary.outcomes.error;
  if (errors > 0 && o.argv.maxErrorRate === undefined) {
    // errors are never wrong answers, and left out of every figure: said, so that a flaky night is not read as a good one
    const share = ((errors / data.head.summary.total) * 100).toFixed(1);
    printError(`answer-eval: warning: ${errors} of ${data.head.summary.total} questions (${share}%) ended in error: left out of the figures, not counted as wrong; --max-error-rate gates them${o.resume !== undefined ? `, and ${o.resume} --rerun errors asks them again` : ''}\n`);
  }
  // a regression gate on a run that did not ask questions the baseline measured (a shard) cannot be judged: exit 3
  const unjudgedBy = comparison && unjudged(comparison, regressionGatesOf(o.argv));
  enforceGates(ctx, verdict, { unmeasured: unjudgedBy ? new GateNotJudgedError(`${unjudgedBy}; the reports are written`) : undefined });
}

/**
 * `run --repeat N`: quarantine.txt, the questions whose top-1 was not the same every time, beside the reports (added
 * to `written`); the disk's refusal is returned, to be reported with the reports'.
 */
async function writeRepeatQuarantine(data: ReportData, dir: string, written: string[]): Promise<ReportWriteError | undefined> {
  if (!data.head.run.repeat || data.head.run.repeat.times < 2) return undefined;
  try {
    written.push(...(await writeFiles(dir, [{ file: QUARANTINE_FILE, chunks: () => renderRepeatQuarantine(data) }])));
    return undefined;
  } catch (error) {
    if (error instanceof ReportWriteError) return error;
    throw error;
  }
}

/**
 * Publishes a completed --overwrite run over the earlier one (see publishRun); says why not otherwise. Returns where
 * each written path is now.
 */
async function replaceOrKeep({ out }: JobContext, staging: string, dir: string, o: { complete: boolean; resume: string | undefined }): Promise<(path: string) => string> {
  if (o.complete) return publishRun(staging, dir);
  out.printError(
    `answer-eval: --overwrite: this run did not complete with every report written, so the earlier run in ${dir} is kept as it was; this run's reports are in ${staging}` +
      `${o.resume !== undefined ? `, and ${o.resume} continues it (it replaces the earlier run once it completes)` : ''}\n`,
  );
  return (p) => p;
}

/** The error most questions ended in, said after "nothing was measured", so the user need not open results.csv. */
function mostCommonError(results: Iterable<QuestionResult>): string {
  const counts = new Map<string, number>();
  let errors = 0;
  for (const r of results) {
    if (r.error === undefined || r.error === null) continue;
    errors++;
    const key = `${r.error.kind}: ${r.error.message}`;
    if (counts.has(key) || counts.size < 100) counts.set(key, (counts.get(key) ?? 0) + 1); // a bounded tally
  }
  let top: [string, number] | undefined;
  for (const entry of counts) if (top === undefined || entry[1] > top[1]) top = entry;
  return top === undefined ? '' : `. The most common error (${top[1]} of ${errors}): ${top[0]}`;
}
