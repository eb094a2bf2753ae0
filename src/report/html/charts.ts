import { max } from 'd3-array';
import { scaleLinear } from 'd3-scale';
import { ms, pct } from '../describe.js';
import { escapeHtml as h } from '../escape.js';
import type { Dimension, SliceView } from '../insights.js';
import type { ThresholdPoint } from '../../model/metrics.js';
import type { ScoredData } from '../../model/source.js';
import { axisBottom, axisLeft, frame, legend, r1, rect, svg } from './svg.js';

interface Histogram {
  edges: number[];
  counts: number[];
}

type Head = ScoredData['head'];

/** Width in the chart's units of a label of this many characters (10.5 px system font, digits and spaces). */
const textWidth = (chars: number): number => Math.ceil(chars * 6.4);

/** Room for a mark label ("p90 1234 ms") before the next one must go a line lower. */
const LABEL_GAP = 74;

/**
 * The width of the charts in their own units: narrow enough that a chart fitting a 390 px phone keeps its text
 * legible (about 9 px), and shown no wider than 1.2 times that on a wide screen (svg.ts).
 */
export const CHART_WIDTH = 400;

/** Keys of a chart's lines (a swatch and a label each), side by side from `left`, a row lower when `right` is reached. */
function keyRows(items: readonly [cls: string, label: string][], left: number, right: number): { svg: string; rows: number } {
  let x = left;
  let row = 0;
  const svg = items.map(([cls, label]) => {
    const w = 14 + textWidth(label.length) + 12;
    if (x > left && x + w > right) [x, row] = [left, row + 1];
    const at = x;
    x += w;
    return `<rect class="${cls}" x="${at}" y="${4 + row * 14}" width="10" height="10"/><text x="${at + 14}" y="${13 + row * 14}">${h(label)}</text>`;
  }).join('');
  return { svg, rows: row + 1 };
}

/** Top-1 score histogram, correct and not correct side by side in each bin, the recommended threshold marked. */
export function scoreChart(report: Head): string {
  const good = report.metrics.scores.correct.histogram;
  const bad = report.metrics.scores.notCorrect.histogram;
  const f = frame(CHART_WIDTH, 200);
  const edges = [...good.edges, ...bad.edges];
  const x = scaleLinear().domain([Math.min(0, ...edges), Math.max(1, ...edges)]).range([f.left, f.right]);
  const y = scaleLinear().domain([0, max([...good.counts, ...bad.counts, 1]) ?? 1]).nice().range([f.bottom, f.top]);
  const bars = (hist: Histogram, cls: string, half: 0 | 1, what: string) =>
    hist.counts.map((c, i) => {
      const x0 = x(hist.edges[i] ?? 0);
      const w = (x(hist.edges[i + 1] ?? 0) - x0) / 2;
      return rect(x0 + half * w + 0.5, y(c), w - 1, f.bottom - y(c), cls, `${what}, score ${hist.edges[i]}–${hist.edges[i + 1]}: ${c}`);
    }).join('');
  const t = report.metrics.thresholds.recommended?.threshold;
  const label = `recommended ${t}`;
  // left of its line when it would not fit right of it
  const flip = t !== undefined && x(t) + 4 + textWidth(label.length) > f.width;
  const mark = t === undefined ? '' : `<line class="mark" x1="${r1(x(t))}" x2="${r1(x(t))}" y1="${f.top}" y2="${f.bottom}"/><text class="mark-label" x="${r1(x(t)) + (flip ? -4 : 4)}" y="${f.top + 10}"${flip ? ' text-anchor="end"' : ''}>${h(label)}</text>`;
  const body = axisLeft(f, y, String) + bars(good, 'ok', 0, 'correct') + bars(bad, 'bad', 1, 'not correct') + axisBottom(f, x, 'top-1 score', String) + mark + legend(f.left + 8, f.top, [['ok', 'correct'], ['bad', 'not correct']]);
  return svg(f, 'Top-1 score: correct vs not correct', body);
}

/** Points of a long curve kept for hover dots: every `step`-th, and the last. */
const sample = <T>(list: T[], most: number): T[] => {
  const step = Math.max(1, Math.ceil(list.length / most));
  return list.filter((_, k) => k % step === 0 || k === list.length - 1);
};

/**
 * What each floor threshold would do, from the lowest one the run can replay (`replayableFrom`) up: in-scope
 * questions answered correctly, out-of-scope questions refused, and the objective (when it is another line),
 * as steps (a figure holds until the next distinct score); the recommended threshold marked.
 */
export function thresholdChart(report: Head): string | null {
  const th = report.metrics.thresholds;
  const curve = th.curve;
  if (curve.length === 0) return null;
  type Line = [cls: string, key: string, label: string, value: (p: ThresholdPoint) => number];
  const lines: Line[] = [['curve', 'key-accent', 'in-scope answered correctly', (p) => p.answeredCorrectly]];
  if (th.outOfScope > 0) lines.push(['curve oos', 'key-oos', 'out-of-scope refused', (p) => p.refusedCorrectly]);
  if (th.objective !== 'keep-accuracy') lines.push(['curve objective', 'key-objective', 'objective', (p) => p.objective]);
  const width = CHART_WIDTH + 40;
  const keys = keyRows(lines.map(([, key, label]) => [key, label]), 44, width - 14);
  const f = frame(width, 232 + keys.rows * 14, 44, 30, 20 + keys.rows * 14);
  const lo = curve[0]!.threshold;
  const hi = curve.at(-1)!.threshold;
  const x = scaleLinear().domain([lo, hi > lo ? hi : lo + 1]).range([f.left, f.right]);
  const y = scaleLinear().domain([0, 1]).range([f.bottom, f.top]);
  const steps = (value: (p: ThresholdPoint) => number): string =>
    curve.map((p, k) => `${k === 0 ? 'M' : 'H'}${r1(x(p.threshold))}${k === 0 ? ',' : 'V'}${r1(y(value(p)))}`).join('') + `H${r1(f.right)}`;
  const paths = lines.map(([cls, , , value]) => `<path class="${cls}" d="${steps(value)}"/>`).join('');
  const dots = sample(curve, 120).map((p) => `<circle class="dot" cx="${r1(x(p.threshold))}" cy="${r1(y(p.answeredCorrectly))}" r="2"><title>${h(`floor ${p.threshold}: ${pct(p.answeredCorrectly)} of in-scope answered correctly, ${pct(p.refusedCorrectly)} of out-of-scope refused, ${pct(p.coverage)} of in-scope answered at all, objective ${p.objective.toFixed(3)}`)}</title></circle>`).join('');
  const rec = th.recommended;
  const mark = rec ? (() => {
    const cx = r1(x(rec.threshold));
    const right = cx > (f.left + f.right) / 2;
    return `<line class="mark" x1="${cx}" x2="${cx}" y1="${f.top - 4}" y2="${f.bottom}"/><text class="mark-label" x="${right ? cx - 4 : cx + 4}" y="${f.top - 4}" text-anchor="${right ? 'end' : 'start'}">recommended ${h(rec.threshold)}</text>`;
  })() : '';
  const body = axisLeft(f, y, (v) => pct(v, 0), 5) + paths + dots + mark + keys.svg + axisBottom(f, x, `floor threshold (from ${lo}, the lowest score answered)`, String);
  return svg(f, 'In-scope answered correctly and out-of-scope refused, by floor threshold', body);
}

/** Latency histogram with p50 and p90 marked. */
export function latencyChart(report: Head): string | null {
  const hist = report.metrics.latency.histogram;
  if (hist.counts.length === 0) return null;
  const f = frame(CHART_WIDTH, 180);
  const x = scaleLinear().domain([hist.edges[0] ?? 0, hist.edges.at(-1) ?? 1]).range([f.left, f.right]);
  const y = scaleLinear().domain([0, max([...hist.counts, 1]) ?? 1]).nice().range([f.bottom, f.top]);
  const bars = hist.counts.map((c, i) => {
    const x0 = x(hist.edges[i] ?? 0);
    return rect(x0 + 0.5, y(c), x(hist.edges[i + 1] ?? 0) - x0 - 1, f.bottom - y(c), 'lat', `${hist.edges[i]}–${hist.edges[i + 1]} ms: ${c}`);
  }).join('');
  // labels never overlap: a label close to the one before goes a line lower; near the right edge, left of its line
  let last = -Infinity;
  let line = 0;
  const marks = (['p50', 'p90'] as const).map((p) => {
    const v = report.summary.latencyMs[p];
    if (v === null || v > x.domain()[1]!) return '';
    const at = r1(x(v));
    line = at - last < LABEL_GAP ? line + 1 : 0;
    last = at;
    const flip = at + LABEL_GAP > f.right;
    return `<line class="mark" x1="${at}" x2="${at}" y1="${f.top}" y2="${f.bottom}"/><text class="mark-label" x="${flip ? at - 3 : at + 3}" y="${f.top + 10 + line * 14}"${flip ? ' text-anchor="end"' : ''}>${p} ${h(ms(v))}</text>`;
  }).join('');
  return svg(f, 'Latency distribution (ms)', axisLeft(f, y, String) + bars + marks + axisBottom(f, x, 'latency (ms)', String));
}

/**
 * Horizontal bars of top-1 accuracy per slice, worst first, with the 95% interval as a whisker; the right margin
 * fits the longest value label. Each bar is a link to its questions (`goto`, as the slice tables).
 */
export function sliceBars(title: string, list: SliceView[], dim: Dimension, limit = 12): string | null {
  const shown = list.filter((s) => s.accuracy !== null).slice(0, limit);
  if (shown.length === 0) return null;
  const row = 20;
  const value = (s: SliceView): string => `${pct(s.accuracy, 0)} · ${s.total}`;
  const f = frame(CHART_WIDTH, 40 + shown.length * row, 120, 32, 6, 8 + textWidth(Math.max(...shown.map((s) => value(s).length))));
  const x = scaleLinear().domain([0, 1]).range([f.left, f.right]);
  const body = shown.map((s, k) => {
    const yy = f.top + k * row;
    const acc = s.accuracy!;
    const tone = acc < 0.6 ? 'bad' : acc < 0.8 ? 'warn' : 'ok';
    const whisker = s.low !== null && s.high !== null ? `<line class="whisker" x1="${r1(x(s.low))}" x2="${r1(x(s.high))}" y1="${yy + 7}" y2="${yy + 7}"/>` : '';
    const tip = `${s.key}: ${pct(acc)} top-1 accuracy, ${s.failures} failing, ${s.errors} errors, ${s.total} questions`;
    return `<g class="goto" data-${dim}="${h(s.key)}" tabindex="0" role="link" aria-label="${h(`${tip}: show these questions`)}"><rect class="hit" x="0" y="${yy}" width="${f.width}" height="${row}" fill="transparent"/><text x="${f.left - 6}" y="${yy + 11}" text-anchor="end">${h(s.key.length > 18 ? `${s.key.slice(0, 17)}…` : s.key)}</text>`
      + rect(f.left, yy + 1, x(acc) - f.left, row - 6, tone, tip)
      + whisker + `<text x="${f.right + 4}" y="${yy + 11}">${h(value(s))}</text></g>`;
  }).join('');
  return svg(f, title, body + axisBottom(f, x, 'top-1 accuracy', (v) => pct(v, 0), 5));
}
