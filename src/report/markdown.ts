import { consistencyMarkdown } from './consistency.js';
import { conversationsMarkdown } from './conversations.js';
import { coverageMarkdown } from './coverage.js';
import { describeExpected, describeGot, ms, pct, truncate } from './describe.js';
import { neutralizeMentions } from './escape.js';
import { crossValidationText, floorFigures, IN_SAMPLE_NOTE } from './floor.js';
import { figureInterval, figureValue, headline, type Figure } from './headline.js';
import { allSlices, confusions, failingConversations, fallbackMissedText, firstFailing, firstFailingConversations, isSingle, outOfScopeMisses, unlistedMisses, type SliceView } from './insights.js';
import type { Interval } from '../model/metrics.js';
import { attentionCount, minusCounts, OUTCOME_CLASSES, outcomesShown } from '../model/outcome.js';
import type { ScoredData } from '../model/source.js';
import { verdictMarkdown } from './verdict.js';
import { nothingMeasured } from '../model/measured.js';
import { isCircuitBreak } from '../model/stop.js';

const MD_ESCAPES: Record<string, string> = { '<': '&lt;', '>': '&gt;', '&': '&amp;', '|': '\\|' };

/** Data text safe in a Markdown table cell: one line, no HTML, no pipes, no emphasis, links or code, no @mention or #123. */
export const md = (text: unknown, max = 80): string =>
  neutralizeMentions(truncate(String(text ?? ''), max)).replace(/([\\`*_[\]#~!])/g, '\\$1').replace(/[<>&|]/g, (c) => MD_ESCAPES[c]!);

/**
 * Why the figures below do not judge the service, first, as the console says it: a run stopped early (its gates
 * are not judged) or one that measured nothing. Both exit 3.
 */
function unfinished(report: ScoredData['head']): string[] {
  const { run, summary: s } = report;
  if (run.status === 'partial') {
    const of = run.shard?.questions ?? run.dataset.questions;
    // the gates and --baseline are kept for --resume; after the circuit breaker, the errors it stopped on are asked again too
    const resume = `answer-eval run --resume DIR${isCircuitBreak(run.stopReason) ? ' --rerun errors' : ''}`;
    return [`**⚠️ Stopped early: ${s.total} of ${of} questions asked${run.stopReason ? `: ${md(run.stopReason, 400)}` : ''}.** No gate is judged on a partial run (exit 3); \`${resume}\` finishes it, with its gates.`, ''];
  }
  const nothing = nothingMeasured(report, { errorRateGated: report.gates?.results.some((r) => r.metric === 'errorRate') ?? false });
  return nothing === undefined ? [] : [`**⚠️ ${md(nothing.charAt(0).toUpperCase() + nothing.slice(1), 400)}.** No gate is judged (exit 3).`, ''];
}

/** The headline figures with their intervals, as a one-row table. */
function headlineTable({ metrics, coverage }: ScoredData['head']): string[] {
  const figures = headline(metrics, coverage);
  const cell = (f: Figure) => `**${figureValue(f)}**${figureInterval(f) ? ` (95% CI ${figureInterval(f)})` : ''}`;
  return [`| ${figures.map((f) => f.name).join(' | ')} |`, `|${'---:|'.repeat(figures.length)}`, `| ${figures.map(cell).join(' | ')} |`];
}

const withInterval = (value: number | null, i: Interval): string =>
  i.low !== null && i.high !== null ? `**${pct(value)}** (95% CI ${pct(i.low)}–${pct(i.high)}, n=${i.n})` : `**${pct(value)}**`;

function worstSlices(dim: string, list: SliceView[]): string[] {
  const rows = list.filter((s) => s.accuracy !== null).slice(0, 3);
  return rows.length === 0 ? [] : [`| ${dim} | ${rows.map((s) => `${md(s.key, 30)} ${pct(s.accuracy, 0)} (${s.failures} failing of ${s.total})`).join(' · ')} |`];
}

/**
 * summary.md: a compact Markdown summary for a pull-request comment or `$GITHUB_STEP_SUMMARY`.
 * One pass over the results for the first failing questions, and one for the failing conversations when there are any.
 */
export function* renderMarkdown(data: ScoredData): Generator<string> {
  yield markdown(data);
}

/** The title's name of a dataset: its file name (the path, often absolute, is in the last line). */
const fileName = (path: string): string => path.split(/[\\/]/).filter(Boolean).at(-1) ?? path;

function markdown(data: ScoredData): string {
  const report = data.head;
  const { summary: s, run, metrics } = report;
  const o = s.outcomes;
  const shown = outcomesShown(metrics.conversations !== undefined);
  // the verdict comes first: a pull-request comment or job summary opens on it
  const verdict = report.gates ? [...verdictMarkdown(report.gates, (t) => md(t, 2000)), ''] : [];
  const lines = [
    ...verdict,
    ...unfinished(report),
    `### answer-eval: ${md(fileName(run.dataset.path), 60)}${run.status === 'partial' ? ' (PARTIAL run)' : ''}`,
    '',
    ...headlineTable(report),
    '',
    `Top-1 accuracy ${withInterval(s.top1Accuracy, metrics.intervals.top1Accuracy)} · answerable accuracy ${withInterval(s.answerableAccuracy, metrics.intervals.answerableAccuracy)}`,
    '',
    `| ${shown.map((k) => OUTCOME_CLASSES[k].label).join(' | ')} | total |`,
    `|${'---:|'.repeat(shown.length + 1)}`,
    `| ${shown.map((k) => o[k]).join(' | ')} | ${s.total} |`,
    '',
    `Latency p50 ${ms(s.latencyMs.p50)} · p90 ${ms(s.latencyMs.p90)} · p99 ${ms(s.latencyMs.p99)} · rates: floor ${pct(s.rates.floor)}, dummy ${pct(s.rates.dummy)}, empty ${pct(s.rates.empty)}, error ${pct(s.rates.error)}`,
  ];
  lines.push(...coverageMarkdown(report.coverage, md));
  lines.push(...consistencyMarkdown(metrics, md));
  if (metrics.conversations) lines.push(...conversationsMarkdown(metrics.conversations, failingConversations(metrics.conversations) > 0 ? firstFailingConversations(data.results, 10) : [], md));
  const recommended = metrics.thresholds.recommended;
  if (recommended) {
    const t = metrics.thresholds;
    lines.push('', `Recommended floor threshold **${recommended.threshold}**: ${floorFigures(recommended, t.outOfScope > 0)}, ${IN_SAMPLE_NOTE} (objective: ${md(t.objectiveText, 200)}${t.replayableFrom !== null ? `; the service answered nothing below ${t.replayableFrom}, so no lower floor can be judged` : ''}).`);
    const validated = crossValidationText(t);
    if (validated) lines.push('', `${validated}.`);
  }
  const slices = allSlices(data);
  const worst = (['category', 'language', 'tag'] as const).flatMap((d) => worstSlices(d, slices[d]));
  if (worst.length > 0) lines.push('', '**Worst slices** (top-1 accuracy)', '', '| by | worst first |', '|---|---|', ...worst);
  const top = confusions(data, 5);
  if (top.length > 0) {
    lines.push('', '**Top confusions** (in scope)', '', '| expected | got instead | count | e.g. |', '|---|---|---:|---|');
    for (const c of top) lines.push(`| ${md(c.expected, 40)} | ${md(c.got, 40)} | ${c.count} | ${c.examples.slice(0, 3).map((id) => md(id, 20)).join(', ')} |`);
  }
  const misses = outOfScopeMisses(data, 5);
  if (o.fallback_missed > 0) {
    lines.push('', `**Out-of-scope questions answered anyway** (fallback missed): ${fallbackMissedText(o)}`, '', '| answered by | count | e.g. |', '|---|---:|---|');
    for (const c of misses) lines.push(`| ${md(c.got, 40)} | ${c.count} | ${c.examples.slice(0, 3).map((id) => md(id, 20)).join(', ')} |`);
    const rest = unlistedMisses(o, misses);
    if (rest > 0) lines.push(`| … other entries | ${rest} | |`);
  }
  // a conversation's failing turn is listed with its conversation, above
  const count = attentionCount(minusCounts(o, metrics.conversations?.turnOutcomes));
  if (count > 0) {
    lines.push('', `<details><summary>${count} failing questions (first 10)</summary>`, '', '| id | outcome | question | expected | got | why |', '|---|---|---|---|---|---|');
    for (const r of firstFailing(data.results, 10, isSingle)) lines.push(`| ${md(r.id, 20)} | ${r.outcome} | ${md(r.question, 60)} | ${md(describeExpected(r.expected), 40)} | ${md(describeGot(r), 50)} | ${md(r.reason ?? '', 120)} |`);
    lines.push('', '</details>');
  }
  lines.push('', `<sub>${md(report.tool.name)} ${md(report.tool.version)} · dataset ${md(run.dataset.path, 200)} · ${md(run.baseUrl)} · agent ${md(run.agent)} · ${run.startedAt}</sub>`, '');
  return lines.join('\n');
}
