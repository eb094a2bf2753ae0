import { scaleLinear } from 'd3-scale';
import type { Interval } from '../../model/metrics.js';
import { ms, pct } from '../../report/describe.js';
import { escapeHtml as h } from '../../report/escape.js';
import { axisLeft, frame, r1, svg, type Frame } from '../../report/html/svg.js';
import type { TrendRun } from '../schema.js';
import { runLabel } from './format.js';

/** A headline figure over time: a share with its 95% interval, or a latency in ms. */
export interface Series {
  title: string;
  /** `share`: 0..1 with an interval band; `ms`: a plain line. */
  kind: 'share' | 'ms';
  point: (run: TrendRun) => { value: number | null; low?: number | null; high?: number | null; n?: number };
}

const interval = (i: Interval) => ({ value: i.value, low: i.low, high: i.high, n: i.n });

/** The charts of trend.html, in order. */
export const SERIES: readonly Series[] = [
  { title: 'Top-1 accuracy', kind: 'share', point: (r) => interval(r.figures.top1Accuracy) },
  { title: 'In-scope accuracy (answerable)', kind: 'share', point: (r) => interval(r.figures.answerableAccuracy) },
  { title: 'Out-of-scope recall', kind: 'share', point: (r) => interval(r.figures.outOfScopeRecall) },
  { title: 'Error rate', kind: 'share', point: (r) => interval(r.figures.errorRate) },
  { title: 'Latency p90', kind: 'ms', point: (r) => ({ value: r.figures.latencyP90 }) },
];

/** Run indices to label: every `step`-th, `step` chosen so that at most `max` fit, and the last when there is room for it. */
export function tickRuns(n: number, max = 7): number[] {
  const step = Math.max(1, Math.ceil((n - 1) / (max - 1)));
  const ticks: number[] = [];
  for (let i = 0; i < n; i += step) ticks.push(i);
  const last = ticks.at(-1)!;
  if (last !== n - 1 && n - 1 - last >= step * 0.6) ticks.push(n - 1);
  return ticks;
}

/** Width of a day label (`2026-01-10`) in the chart's units, with the room kept between two. */
const DAY_LABEL = 72;

/** Whether two runs or more started on the same day: the axis then labels its ticks with their time too. */
export const sameDayRuns = (runs: readonly TrendRun[]): boolean => new Set(runs.map((r) => r.startedAt.slice(0, 10))).size < runs.length;

/** How a tick names its run when runs share a day: the time to the minute, to the second, or the run's number. */
const TIMES: readonly ((run: TrendRun, i: number) => string)[] = [(r) => r.startedAt.slice(11, 16), (r) => r.startedAt.slice(11, 19), (_, i) => `#${i + 1}`];

/**
 * The run axis: as many ticks as their labels have room for. A tick names its run's day; when runs share a day, its
 * time (`02:17`, to the second or the run's number when that is not enough to tell two ticks apart) on the first line,
 * and the day under it, at the first tick of each day only.
 */
function runAxis(f: Frame, x: (i: number) => number, runs: readonly TrendRun[]): string {
  const shown = tickRuns(runs.length, Math.max(2, Math.floor((f.right - f.left) / DAY_LABEL)));
  const time = TIMES.find((t) => new Set(shown.map((i) => `${runs[i]!.startedAt.slice(0, 10)} ${t(runs[i]!, i)}`)).size === shown.length) ?? TIMES.at(-1)!;
  const timed = sameDayRuns(runs);
  let day = '';
  const ticks = shown.map((i) => {
    const at = r1(x(i));
    const run = runs[i]!;
    const label = (text: string, line: number) => `<text x="${at}" y="${f.bottom + 15 + line * 12}" text-anchor="middle">${h(text)}</text>`;
    const lines = timed ? label(time(run, i), 0) + (run.startedAt.slice(0, 10) === day ? '' : label(run.startedAt.slice(0, 10), 1)) : label(runLabel(run, 'short'), 0);
    day = run.startedAt.slice(0, 10);
    return `<line x1="${at}" x2="${at}" y1="${f.bottom}" y2="${f.bottom + 4}"/>${lines}`;
  });
  return `<g class="axis"><line x1="${f.left}" x2="${f.right}" y1="${f.bottom}" y2="${f.bottom}"/>${ticks.join('')}</g>`;
}

/** Dashed verticals just before each run where the dataset (D) or the service (S) changed, their changes in the tooltip. */
function changeMarks(f: Frame, x: (i: number) => number, runs: readonly TrendRun[]): string {
  return runs.map((run, i) => {
    if (run.changes.length === 0) return '';
    const at = r1(runs.length === 1 ? x(i) : x(i - 0.5));
    const kinds = [...new Set(run.changes.map((c) => (c.kind === 'dataset' ? 'D' : 'S')))].join('');
    const tip = `changed before ${runLabel(run, 'long')}: ${run.changes.map((c) => c.what).join('; ')}`;
    return `<g class="change"><title>${h(tip)}</title><line class="mark" x1="${at}" x2="${at}" y1="${f.top}" y2="${f.bottom}"/><text class="mark-label" x="${at + 2}" y="${f.top + 9}">${kinds}</text></g>`;
  }).join('');
}

/** One figure over the runs: its line, its 95% interval as a band, a dot per run (hover: the figures), change marks. */
export function seriesChart(series: Series, runs: readonly TrendRun[]): string {
  const f = frame(400, 210, 44, sameDayRuns(runs) ? 42 : 30, 14, 24);
  const points = runs.map((run, i) => ({ i, run, ...series.point(run) }));
  const all = points.filter((p): p is typeof p & { value: number } => p.value !== null);
  // the line and its band follow the real runs; a what-if (a report written by rescore) is a hollow dot off the line
  const known = all.filter((p) => !p.run.rescored);
  const lows = all.map((p) => p.low ?? p.value);
  const highs = all.map((p) => p.high ?? p.value);
  const share = series.kind === 'share';
  const lo = all.length === 0 ? 0 : Math.min(...lows);
  const hi = all.length === 0 ? 1 : Math.max(...highs);
  const y = scaleLinear().domain(share ? [Math.max(0, lo - 0.05), Math.min(1, hi + 0.05)] : [0, Math.max(1, hi * 1.1)]).nice().range([f.bottom, f.top]);
  const x = (i: number): number => (runs.length <= 1 ? (f.left + f.right) / 2 : f.left + 8 + ((f.right - f.left - 16) * i) / (runs.length - 1));
  const band = share && known.some((p) => p.low != null && p.high != null)
    ? (() => {
        const withBand = known.filter((p) => p.low != null && p.high != null);
        const top = withBand.map((p) => `${r1(x(p.i))},${r1(y(p.high!))}`);
        const bottom = withBand.reverse().map((p) => `${r1(x(p.i))},${r1(y(p.low!))}`);
        return `<polygon class="band" points="${[...top, ...bottom].join(' ')}"/>`;
      })()
    : '';
  const line = known.map((p, k) => `${k === 0 ? 'M' : 'L'}${r1(x(p.i))},${r1(y(p.value))}`).join('');
  const fmt = (v: number): string => (share ? pct(v) : ms(v));
  const dots = all.map((p) => {
    const range = p.low != null && p.high != null ? ` (95% CI ${pct(p.low)}–${pct(p.high)}, n=${p.n})` : '';
    const whatIf = p.run.whatIf ? ` · what-if: rescore of ${p.run.whatIf.from}, ${p.run.whatIf.what}` : '';
    return `<circle class="dot${p.run.rescored ? ' whatif' : ''}" cx="${r1(x(p.i))}" cy="${r1(y(p.value))}" r="2.6"><title>${h(`${runLabel(p.run, 'long')}: ${series.title} ${fmt(p.value)}${range}${whatIf}`)}</title></circle>`;
  }).join('');
  const body = axisLeft(f, y, (v) => (share ? pct(v, 0) : String(v))) + band + `<path class="curve" d="${line}"/>` + dots + changeMarks(f, x, runs) + runAxis(f, x, runs);
  return svg(f, `${series.title} over ${runs.length} runs`, body);
}
