import { ms, pct } from '../../report/describe.js';
import { md } from '../../report/markdown.js';
import type { Trend, TrendRun } from '../schema.js';
import { SERIES } from './charts.js';
import { verdictMarkdown } from '../../report/verdict.js';
import { verdictOf } from '../../model/verdict.js';
import { deltaPoints, realRuns, runLabel, streakRuns, whatIfNote, withInterval } from './format.js';
import { plural } from '../../util/text.js';

const LIST_LIMIT = 50;

function figureRows(trend: Trend): string[] {
  const real = realRuns(trend);
  const first = real[0]!;
  const last = real.at(-1)!;
  return SERIES.map((s) => {
    const a = s.point(first);
    const b = s.point(last);
    const known = real.map((r) => s.point(r).value).filter((v): v is number => v !== null);
    const fmt = (v: number | null): string => (s.kind === 'share' ? pct(v) : ms(v));
    const range = known.length === 0 ? 'n/a' : `${fmt(Math.min(...known))} – ${fmt(Math.max(...known))}`;
    const latest = s.kind === 'share' ? withInterval({ value: b.value, low: b.low ?? null, high: b.high ?? null, successes: 0, n: b.n ?? 0 }) : fmt(b.value);
    const change = s.kind === 'share' ? deltaPoints(a.value, b.value) : a.value === null || b.value === null ? 'n/a' : `${b.value - a.value >= 0 ? '+' : ''}${Math.round(b.value - a.value)} ms`;
    return `| ${s.title} | ${fmt(a.value)} | ${latest} | ${change} | ${range} |`;
  });
}

const runName = (run: TrendRun, i: number): string => `${md(runLabel(run, 'long', i), 40)}${run.rescored ? ' (what-if)' : ''}`;

/** The reports written by rescore: left out, or shown apart with their top-1; each with the run it came from and what it changed. */
function whatIfLines(trend: Trend): string[] {
  const w = trend.whatIfs;
  if (!w || w.runs.length === 0) return [];
  const top1 = new Map(trend.runs.map((r) => [r.path, r.figures.top1Accuracy.value]));
  const why = w.included
    ? 'reports written by `answer-eval rescore`, a run\'s answers judged again: shown among the runs, they count for no failing, flaky or new question, nor for the gates'
    : 'reports written by `answer-eval rescore`, a run\'s answers judged again, are not nights of history; `--include-what-ifs` shows them';
  return [
    `ℹ️ **${whatIfNote(trend)}** (${why}):`,
    '',
    ...w.runs.map((x) => `- ${md(x.path, 200)}: rescore of ${md(x.from, 200)}, ${md(x.what, 200)}${w.included ? ` · top-1 ${pct(top1.get(x.path) ?? null)}` : ''}`),
    '',
  ];
}

/** trend.md: the verdict first (as summary.md and compare.md start), then the figures, the changes, the failing and the flaky questions. */
export function* renderTrendMarkdown(trend: Trend): Generator<string> {
  const { runs } = trend;
  const real = realRuns(trend);
  const verdict = verdictOf(trend.gates);
  const note = whatIfNote(trend);
  const lines = [...(verdict ? [...verdictMarkdown(verdict, (t) => md(t, 2000)), ''] : []), `### answer-eval trend · ${plural(real.length, 'run')}${note ? ` (${note})` : ''}`, ''];
  const leftOut = trend.leftOut ?? [];
  if (leftOut.length > 0) lines.push(`⚠️ **${plural(leftOut.length, 'run')} left out:**`, '', ...leftOut.map((l) => `- ${md(l.path, 200)}: ${md(l.why, 400)}`), '');
  lines.push(...whatIfLines(trend));
  if (real.length === 0) {
    yield `${lines.join('\n')}No runs.\n`;
    return;
  }
  const latest = real.at(-1)!;
  const fresh = trend.failing.filter((q) => q.newFailure).length;
  lines.push(
    `${plural(real.length, 'run')} from ${md(runLabel(real[0]!, 'long'))} to ${md(runLabel(latest, 'long'))} · ${trend.questions} questions · latest: ${md(latest.path, 80)}`,
    '',
    `**${trend.failing.length}** failing in the latest run (**${fresh}** new) · **${trend.flaky.length}** flaky (top-1 correctness flipped ≥ ${trend.options.flakyFlips} times with nothing changed)`,
    '',
    '| figure | first run | latest run | change | range |',
    '|---|---:|---:|---:|---:|',
    ...figureRows(trend),
  );
  const changed = runs.flatMap((r, i) => (r.changes.length > 0 ? [[r, i] as const] : []));
  if (changed.length > 0) {
    lines.push('', '**Changes** (before the run named)', '', '| run | what changed |', '|---|---|');
    for (const [r, i] of changed) lines.push(`| ${runName(r, i)} | ${r.changes.map((c) => md(c.what, 160)).join('<br>')} |`);
  }
  if (trend.failing.length > 0) {
    lines.push('', `<details><summary>${trend.failing.length} failing questions in the latest run${trend.failing.length > LIST_LIMIT ? ` (first ${LIST_LIMIT})` : ''}</summary>`, '');
    lines.push('| id | question | outcome | failing since | runs | ever passed | new | why |', '|---|---|---|---|---:|---|---|---|');
    for (const q of trend.failing.slice(0, LIST_LIMIT)) {
      lines.push(`| ${md(q.id, 24)} | ${md(q.question, 60)} | ${q.outcome} | ${runName(runs[q.failingSince]!, q.failingSince)} | ${streakRuns(trend, q.failingSince)} | ${q.everPassed ? 'yes' : 'never'} | ${q.newFailure ? 'new' : ''} | ${md(q.reason ?? '', 100)} |`);
    }
    lines.push('', '</details>');
  }
  if (trend.flaky.length > 0) {
    lines.push('', `**Flaky questions** (${trend.flaky.length}${trend.flaky.length > LIST_LIMIT ? `, first ${LIST_LIMIT}` : ''})`, '', '| id | question | flips | latest |', '|---|---|---:|---|');
    for (const q of trend.flaky.slice(0, LIST_LIMIT)) lines.push(`| ${md(q.id, 24)} | ${md(q.question, 60)} | ${q.flips} | ${q.correctNow === null ? 'error' : q.correctNow ? 'correct' : 'failing'} |`);
  }
  if (trend.gates.length > 0) {
    lines.push('', '**Gates**', '', ...trend.gates.map((g) => `- ${g.passed ? 'passed' : '**FAILED**'}: ${md(g.message, 400)}`));
  }
  lines.push('', `<sub>${md(trend.tool.name)} ${md(trend.tool.version)} · trend schema ${md(trend.schemaVersion)}</sub>`, '');
  yield lines.join('\n');
}
