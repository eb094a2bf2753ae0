import { max } from 'd3-array';
import { scaleLinear } from 'd3-scale';
import { pct } from '../describe.js';
import { escapeHtml as h } from '../escape.js';
import type { SliceView } from '../insights.js';
import type { ScoredData } from '../../model/source.js';
import { axisBottom, axisLeft, frame, legend, r1, rect, svg } from './svg.js';

interface Histogram {
  edges: number[];
  counts: number[];
}

type Head = ScoredData['head'];

/** Top-1 score histogram, correct and not correct side by side in each bin, the recommended threshold marked. */
export function scoreChart(report: Head): string {
  const good = report.metrics.scores.correct.histogram;
  const bad = report.metrics.scores.notCorrect.histogram;
  const f = frame(560, 220);
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
  const mark = t === undefined ? '' : `<line class="mark" x1="${r1(x(t))}" x2="${r1(x(t))}" y1="${f.top}" y2="${f.bottom}"/><text class="mark-label" x="${r1(x(t)) + 4}" y="${f.top + 10}">recommended ${h(t)}</text>`;
  const body = axisLeft(f, y, String) + bars(good, 'ok', 0, 'correct') + bars(bad, 'bad', 1, 'not correct') + axisBottom(f, x, 'top-1 score', String) + mark + legend(f.left + 8, f.top, [['ok', 'correct'], ['bad', 'not correct']]);
  return svg(f, 'Top-1 score: correct vs not correct', body);
}

/** Accuracy of what is answered vs coverage as the floor threshold rises; the recommended threshold circled. */
export function thresholdChart(report: Head): string | null {
  const th = report.metrics.thresholds;
  if (th.curve.length === 0) return null;
  const points = th.curve.map((p) => ({ ...p, accuracy: p.coverage > 0 ? p.answeredCorrectly / p.coverage : null }));
  const f = frame(560, 220);
  const x = scaleLinear().domain([0, 1]).range([f.left, f.right]);
  const y = scaleLinear().domain([Math.min(0.5, ...points.flatMap((p) => (p.accuracy === null ? [] : [p.accuracy]))), 1]).nice().range([f.bottom, f.top]);
  const line = points.filter((p) => p.accuracy !== null).map((p, k) => `${k === 0 ? 'M' : 'L'}${r1(x(p.coverage))},${r1(y(p.accuracy!))}`).join('');
  const dots = points.map((p) => p.accuracy === null ? '' : `<circle class="dot" cx="${r1(x(p.coverage))}" cy="${r1(y(p.accuracy))}" r="2.5"><title>${h(`threshold ${p.threshold}: coverage ${pct(p.coverage)}, accuracy ${pct(p.accuracy)}, refused out-of-scope ${pct(p.refusedCorrectly)}`)}</title></circle>`).join('');
  const rec = th.recommended && th.recommended.coverage > 0 ? th.recommended : null;
  const mark = rec ? (() => {
    const [cx, cy] = [r1(x(rec.coverage)), r1(y(rec.answeredCorrectly / rec.coverage))];
    return `<circle class="mark" cx="${cx}" cy="${cy}" r="7"/><text class="mark-label" x="${cx - 8}" y="${cy + 20}" text-anchor="end">recommended threshold ${h(rec.threshold)}</text>`;
  })() : '';
  const body = axisLeft(f, y, (v) => pct(v, 0)) + `<path class="curve" d="${line}"/>` + dots + mark + axisBottom(f, x, 'coverage (share of answerable questions answered)', (v) => pct(v, 0));
  return svg(f, 'Accuracy of answered questions vs coverage, by floor threshold', body);
}

/** Latency histogram with p50 and p90 marked. */
export function latencyChart(report: Head): string | null {
  const hist = report.metrics.latency.histogram;
  if (hist.counts.length === 0) return null;
  const f = frame(560, 200);
  const x = scaleLinear().domain([hist.edges[0] ?? 0, hist.edges.at(-1) ?? 1]).range([f.left, f.right]);
  const y = scaleLinear().domain([0, max([...hist.counts, 1]) ?? 1]).nice().range([f.bottom, f.top]);
  const bars = hist.counts.map((c, i) => {
    const x0 = x(hist.edges[i] ?? 0);
    return rect(x0 + 0.5, y(c), x(hist.edges[i + 1] ?? 0) - x0 - 1, f.bottom - y(c), 'lat', `${hist.edges[i]}–${hist.edges[i + 1]} ms: ${c}`);
  }).join('');
  const marks = (['p50', 'p90'] as const).map((p) => {
    const v = report.summary.latencyMs[p];
    return v === null || v > x.domain()[1]! ? '' : `<line class="mark" x1="${r1(x(v))}" x2="${r1(x(v))}" y1="${f.top}" y2="${f.bottom}"/><text class="mark-label" x="${r1(x(v)) + 3}" y="${f.top + 10}">${p}</text>`;
  }).join('');
  return svg(f, 'Latency distribution (ms)', axisLeft(f, y, String) + bars + marks + axisBottom(f, x, 'latency (ms)', String));
}

/** Horizontal bars of top-1 accuracy per slice, worst first, with the 95% interval as a whisker. */
export function sliceBars(title: string, list: SliceView[], limit = 12): string | null {
  const shown = list.filter((s) => s.accuracy !== null).slice(0, limit);
  if (shown.length === 0) return null;
  const row = 20;
  const f = frame(560, 40 + shown.length * row, 120, 32, 6, 60);
  const x = scaleLinear().domain([0, 1]).range([f.left, f.right]);
  const body = shown.map((s, k) => {
    const yy = f.top + k * row;
    const acc = s.accuracy!;
    const tone = acc < 0.6 ? 'bad' : acc < 0.8 ? 'warn' : 'ok';
    const whisker = s.low !== null && s.high !== null ? `<line class="whisker" x1="${r1(x(s.low))}" x2="${r1(x(s.high))}" y1="${yy + 7}" y2="${yy + 7}"/>` : '';
    return `<text x="${f.left - 6}" y="${yy + 11}" text-anchor="end">${h(s.key.length > 18 ? `${s.key.slice(0, 17)}…` : s.key)}</text>`
      + rect(f.left, yy + 1, x(acc) - f.left, row - 6, tone, `${s.key}: ${pct(acc)} top-1 accuracy, ${s.failures} failing, ${s.errors} errors, ${s.total} questions`)
      + whisker + `<text x="${f.right + 4}" y="${yy + 11}">${h(pct(acc, 0))} · ${s.total}</text>`;
  }).join('');
  return svg(f, title, body + axisBottom(f, x, 'top-1 accuracy', (v) => pct(v, 0), 5));
}
