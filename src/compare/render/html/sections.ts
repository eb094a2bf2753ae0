import { scaleLinear } from 'd3-scale';
import { escapeHtml as h } from '../../../report/escape.js';
import { CHANGE_CLASSES } from '../../classes.js';
import type { Comparison, PairedDelta, QuestionChange, SliceComparison } from '../../schema.js';
import { conversationCard } from './conversations.js';
import { kbCoverageCard } from './kb-coverage.js';
import { interval, metricRows, MRR_POPULATION, mrrDeltaText, pct, pts, pValue, score, signed } from '../format.js';

/** An accuracy interval in points, numbers only: `−8.4 … −3.8`. */
const pointsInterval = (d: PairedDelta): string => (d.low === null || d.high === null ? 'n/a' : `${signed(d.low * 100, 1)} … ${signed(d.high * 100, 1)}`);

const card = (title: string, body: string): string => `<section class="card"><h3>${h(title)}</h3>${body}</section>`;
const tone = (v: number | null, goodWhenUp = true): string => (v === null || v === 0 ? '' : (v > 0) === goodWhenUp ? 'good' : 'bad');
/** A link to the changes of a class (plain text when there is none). */
const jump = (cls: keyof Comparison['questions'], n: number, text: string): string =>
  n === 0 ? `<span class="hint">${h(text)}</span>` : `<a href="#changes" class="jump" data-class="${cls}">${h(text)} →</a>`;

/** The first screen: accuracy and its change, what broke and what was fixed, MRR, errors, the question sets. */
export function cards(c: Comparison): string {
  const n = c.counts;
  const acc = c.paired.top1Accuracy;
  const m = c.metrics;
  const parts = [
    card(
      'Top-1 accuracy',
      `<div class="big">${pct(m.top1Accuracy.head)} <small>from ${pct(m.top1Accuracy.base)}</small></div><div class="big ${tone(m.top1Accuracy.delta)}">${h(pts(m.top1Accuracy.delta))}</div>` +
        `<div class="ci">paired: ${h(pts(acc.delta))}, 95% CI ${h(interval(acc))} on ${n.paired.toLocaleString('en')} questions</div>`,
    ),
    card(
      'Broken · fixed',
      `<div class="big"><span class="${n.broken ? 'bad' : ''}">${n.broken.toLocaleString('en')}</span> <small>broken</small></div>` +
        `<div class="big"><span class="${n.fixed ? 'good' : ''}">${n.fixed.toLocaleString('en')}</span> <small>fixed</small></div>` +
        `<div class="ci">exact McNemar p ${h(pValue(c.paired.mcnemar.p))}${n.quarantined > 0 ? ` (its ${c.paired.mcnemar.b} broken include the quarantined)` : ''}</div>${jump('broken', n.broken, 'the broken questions')}` +
        (c.quarantine ? `<div>${jump('quarantined', n.quarantined, `${n.quarantined.toLocaleString('en')} broke, but quarantined`)}</div>` : ''),
    ),
  ];
  const mrr = c.paired.mrr;
  parts.push(
    card(
      'MRR',
      mrr === null || mrr.delta === null
        ? `<div class="hint">${h(c.paired.mrrNote ?? 'no ranked question (with expected_*) answered in both runs')}</div>`
        : `<div class="big">${mrr.head?.toFixed(3)} <small>from ${mrr.base?.toFixed(3)}</small></div><div class="big ${tone(mrr.delta)}">${h(signed(mrr.delta, 3))}</div><div class="ci">95% CI ${h(mrr.low === null || mrr.high === null ? 'n/a' : `${signed(mrr.low, 3)} … ${signed(mrr.high, 3)}`)} on ${mrr.n.toLocaleString('en')} ${h(MRR_POPULATION)}</div>`,
    ),
  );
  parts.push(
    card(
      'Other changes',
      `<ul class="kv col"><li>${jump('top1Changed', n.top1Changed, `${n.top1Changed.toLocaleString('en')} top-1 changed`)}</li><li>${jump('drift', n.drift, `${n.drift.toLocaleString('en')} score drift`)}</li><li>${jump('errors', n.errors, `${n.errors.toLocaleString('en')} with errors`)}</li></ul>` +
        `<div class="ci">error rate ${pct(m.errorRate.base)} → ${pct(m.errorRate.head)}</div>`,
    ),
  );
  const conversations = conversationCard(c);
  if (conversations) parts.push(conversations);
  const coverage = kbCoverageCard(c);
  if (coverage) parts.push(coverage);
  parts.push(
    card(
      'Questions',
      `<div class="big">${n.common.toLocaleString('en')} <small>common</small></div><ul class="kv"><li>${jump('added', n.added, `${n.added.toLocaleString('en')} added`)}</li><li>${jump('removed', n.removed, `${n.removed.toLocaleString('en')} removed`)}</li><li>${jump('changed', n.changed, `${n.changed.toLocaleString('en')} edited`)}</li></ul>`,
    ),
  );
  return `<div class="cards">${parts.join('')}</div>`;
}

/** Base, head and Δ of every metric; the method in a line under it. */
export function metricTable(c: Comparison): string {
  const rows = metricRows(c)
    .map(([label, b, hd, d]) => `<tr><td>${h(label)}</td><td class="num">${h(b)}</td><td class="num">${h(hd)}</td><td class="num">${h(d)}</td></tr>`)
    .join('');
  return `<div class="panel"><table><caption>Metrics, base → head</caption><thead><tr><th>metric</th><th class="num">base</th><th class="num">head</th><th class="num">Δ</th></tr></thead><tbody>${rows}</tbody></table></div>
<p class="hint">Paired statistics use the common questions (same id, question and expectation) labeled and error-free in both runs: exact McNemar test on top-1 correctness; paired bootstrap, ${c.options.resamples} resamples, seed ${c.options.seed}, ${c.options.confidence * 100}% percentile intervals; Holm correction across the slices of each breakdown.</p>`;
}

const SLICE_ROWS = 100;

/** One breakdown's slices, those with a significant or the largest change first; a row filters the changes. */
export function sliceTable(title: 'tag' | 'category', list: SliceComparison[]): string {
  if (list.length === 0) return '';
  const order = [...list].sort((a, b) => a.pHolm - b.pHolm || Math.abs(b.top1Accuracy.delta ?? 0) - Math.abs(a.top1Accuracy.delta ?? 0) || (a.key < b.key ? -1 : 1));
  const rows = order.slice(0, SLICE_ROWS).map((s) => {
    const sig = s.pHolm < 0.05 ? ` sig-${s.mcnemar.b > s.mcnemar.c ? 'bad' : 'good'}` : '';
    return `<tr class="filterable${sig}" data-filter="${title}" data-value="${h(s.key)}" title="show its changes"><td>${h(s.key)}</td><td class="num">${s.n.toLocaleString('en')}</td><td class="num">${s.mcnemar.b}</td><td class="num">${s.mcnemar.c}</td><td class="num ${tone(s.top1Accuracy.delta)}">${h(pts(s.top1Accuracy.delta))}</td><td class="num">${h(pointsInterval(s.top1Accuracy))}</td><td class="num">${h(mrrDeltaText(s.mrr))}</td><td class="num">${h(pValue(s.pHolm))}</td></tr>`;
  });
  const more = list.length > SLICE_ROWS ? `<tr><td colspan="8" class="hint">… ${list.length - SLICE_ROWS} more in compare.json (slices.${title})</td></tr>` : '';
  return `<div class="panel"><table class="slices"><caption>By ${h(title)}, significant changes first</caption><thead><tr><th>${h(title)}</th><th class="num">n</th><th class="num">broken</th><th class="num">fixed</th><th class="num">accuracy Δ</th><th class="num">95% CI (pts)</th><th class="num">MRR Δ</th><th class="num">p (Holm)</th></tr></thead><tbody>${rows.join('')}${more}</tbody></table></div>`;
}

/** The distribution of every drift delta, as bars (up: green, down: red) around 0. */
export function driftHistogram(c: Comparison): string {
  const { edges, counts } = c.drift.histogram;
  if (counts.length === 0) return '<p class="hint">No score drift.</p>';
  const W = 420;
  const H = 170;
  const f = { left: 40, right: W - 12, top: 10, bottom: H - 28 };
  const x = scaleLinear().domain([Math.min(edges[0]!, 0), Math.max(edges[edges.length - 1]!, 0)]).range([f.left, f.right]);
  const y = scaleLinear().domain([0, Math.max(...counts)]).nice().range([f.bottom, f.top]);
  const r1 = (v: number) => Math.round(v * 10) / 10;
  const bars = counts
    .map((n, i) => {
      const lo = edges[i]!;
      const hi = edges[i + 1] ?? lo;
      const w = Math.max(1, x(hi) - x(lo) - 1);
      return `<rect class="${hi <= 0 ? 'down' : 'up'}" x="${r1(x(lo))}" y="${r1(y(n))}" width="${r1(w)}" height="${r1(f.bottom - y(n))}"><title>${h(`${score(lo)} … ${score(hi)}: ${n} questions`)}</title></rect>`;
    })
    .join('');
  const xt = x.ticks(6).map((t) => `<line x1="${r1(x(t))}" x2="${r1(x(t))}" y1="${f.bottom}" y2="${f.bottom + 4}"/><text x="${r1(x(t))}" y="${f.bottom + 15}" text-anchor="middle">${h(score(t))}</text>`).join('');
  const yt = y.ticks(3).map((t) => `<text x="${f.left - 5}" y="${r1(y(t)) + 3}" text-anchor="end">${t}</text>`).join('');
  const title = 'Top-1 score change of the drifting questions (head - base)';
  return `<svg class="chart" viewBox="0 0 ${W} ${H}" role="img" aria-label="${h(title)}" xmlns="http://www.w3.org/2000/svg"><title>${h(title)}</title>${bars}<g class="axis"><line x1="${f.left}" x2="${f.right}" y1="${f.bottom}" y2="${f.bottom}"/>${xt}${yt}<line class="zero" x1="${r1(x(0))}" x2="${r1(x(0))}" y1="${f.top}" y2="${f.bottom}"/><text class="label" x="${f.right}" y="${H - 2}" text-anchor="end">score Δ</text></g></svg>`;
}

/** With JavaScript off: the first broken questions, so the page still says what regressed. */
export function noscriptBroken(c: Comparison, limit = 50): string {
  const list: QuestionChange[] = c.questions.broken.slice(0, limit);
  const top = (s: QuestionChange['base']) => (s.top1 ? `${s.top1.label ?? `#${s.top1.sequence_number}`} (${score(s.top1.score)})` : s.error ?? 'no answer');
  const rows = list.map((q) => `<tr><td>${h(q.id)}</td><td>${h(q.question)}</td><td>${h(q.base.outcome)}: ${h(top(q.base))}</td><td>${h(q.head.outcome)}: ${h(top(q.head))}</td></tr>`);
  return `<noscript><p class="hint">JavaScript is off: the interactive list of changes needs it. The first ${list.length} of ${c.counts.broken} ${h(CHANGE_CLASSES.broken.label)} questions (all are in compare.json and changes.jsonl):</p><div class="panel"><table><thead><tr><th>id</th><th>question</th><th>base</th><th>head</th></tr></thead><tbody>${rows.join('')}</tbody></table></div></noscript>`;
}
