import type { Coverage } from '../model/coverage.js';
import type { Metrics } from '../model/metrics.js';
import { OUTCOME_CLASSES, outcomesShown } from '../model/outcome.js';
import type { ReportHead } from '../model/source.js';
import { conversationConsoleLines } from './conversations.js';
import { coverageConsoleLines } from './coverage.js';
import { IN_SAMPLE_NOTE, tooFewText } from './floor.js';
import { figureInterval, figureValue, headline } from './headline.js';
import { plural } from '../util/text.js';
import { oneLine } from '../util/terminal.js';

const pct = (v: number | null): string => (v === null ? 'n/a' : `${(v * 100).toFixed(1)}%`);
const ms = (v: number | null): string => (v === null ? 'n/a' : `${Math.round(v)} ms`);

/**
 * The headline figures, two a line: `in-scope accuracy   90.7% (95% CI 89.8–91.5%)   out-of-scope recall ...`; the
 * knowledge base's coverage, when known, with its lists (src/report/coverage.ts).
 */
function headlineLines(m: Metrics, coverage: Coverage | undefined): string[] {
  const cells = headline(m).map((f) => `${f.name.padEnd(19)} ${figureValue(f)}${figureInterval(f) ? ` (95% CI ${figureInterval(f)})` : ''}`);
  return [`  ${cells[0]!.padEnd(48)}  ${cells[1]}`, `  ${cells[2]!.padEnd(48)}  ${cells[3]}`, ...coverageConsoleLines(coverage)];
}

/** The recommended floor, as measured on its own questions (optimistic), and cross-validated. */
function floorLines({ thresholds: t }: Metrics): string[] {
  const rec = t.recommended;
  if (!rec) return [];
  const figures = (p: { answeredCorrectly: number; refusedCorrectly: number }) =>
    `in-scope answered correctly ${pct(p.answeredCorrectly)}${t.outOfScope > 0 ? `, out-of-scope refused ${pct(p.refusedCorrectly)}` : ''}`;
  const lines = [`  ${'recommended floor'.padEnd(19)} ${rec.threshold}: ${figures(rec)}, ${IN_SAMPLE_NOTE}`];
  const cv = t.crossValidated;
  if (cv === null) lines.push(`  ${'cross-validated'.padEnd(19)} not enough questions: ${tooFewText(t)}`);
  else if (cv !== undefined) {
    const [low, high] = [Math.min(...cv.thresholds), Math.max(...cv.thresholds)];
    lines.push(`  ${'cross-validated'.padEnd(19)} ${cv.folds} folds: ${figures(cv)} (floors chosen ${low === high ? low : `${low} to ${high}`})`);
  }
  return lines;
}

/** The few lines printed at the end of a run; a line quoting the service's URL, the agent or a stop reason stays one line. */
export function renderConsoleSummary(report: ReportHead): string {
  const { summary: s, run } = report;
  const o = s.outcomes;
  const lines = [
    `${run.status === 'partial' ? 'PARTIAL run' : 'Run'}: ${s.total} of ${plural(run.shard?.questions ?? run.dataset.questions, 'question')}${!run.shard && run.dataset.conversations ? ` (turns of ${plural(run.dataset.conversations, 'conversation')} included)` : ''}${run.shard ? ` (shard ${run.shard.index}/${run.shard.count})` : ''} against ${run.embeddedEngine ? 'the embedded engine' : run.baseUrl} (agent ${run.agent})`,
    ...(report.metrics ? headlineLines(report.metrics, report.coverage) : coverageConsoleLines(report.coverage)),
    `  top-1 accuracy      ${pct(s.top1Accuracy)}   answerable accuracy ${pct(s.answerableAccuracy)}`,
    `  ${outcomesShown(report.metrics?.conversations !== undefined).map((k) => `${OUTCOME_CLASSES[k].label} ${o[k]}`).join('  ')}`,
    ...(report.metrics?.conversations ? conversationConsoleLines(report.metrics.conversations) : []),
    `  latency p50 ${ms(s.latencyMs.p50)}  p90 ${ms(s.latencyMs.p90)}  p99 ${ms(s.latencyMs.p99)}`,
    ...(report.metrics ? floorLines(report.metrics) : []),
  ];
  if (s.unorderedLists > 0) lines.push(`  note: ${s.unorderedLists} answer lists were not in descending score order (top-1 taken by score)`);
  if (run.stopReason) lines.push(`  stopped: ${run.stopReason}`);
  return lines.map(oneLine).join('\n');
}
