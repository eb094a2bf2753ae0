import { consistencyCard } from '../consistency.js';
import { describeExpected, describeGot, ms, pct, truncate } from '../describe.js';
import { escapeHtml as h } from '../escape.js';
import { firstFailing, type Dimension, type SliceView } from '../insights.js';
import type { Confusion, Interval } from '../../model/metrics.js';
import { OUTCOME_CLASSES, OUTCOMES, type Outcome } from '../../model/outcome.js';
import type { QuestionResult } from '../../model/report.js';
import type { ScoredData } from '../../model/source.js';
import { top1 } from '../../score/result.js';

const ci = (i: Interval | undefined): string =>
  i && i.low !== null && i.high !== null ? `<div class="ci">95% CI ${pct(i.low)}–${pct(i.high)} · ${i.successes}/${i.n}</div>` : '';

const card = (title: string, body: string, cls = ''): string => `<section class="card ${cls}"><h3>${h(title)}</h3>${body}</section>`;

const label = (o: Outcome): string => OUTCOME_CLASSES[o].label;

/** The summary cards: accuracy with intervals, outcome counts, rates, latency, rank, threshold. */
export function cards(report: ScoredData['head']): string {
  const { summary: s, metrics: m } = report;
  const total = Math.max(1, s.total);
  const outcomeBar = OUTCOMES.filter((o) => s.outcomes[o] > 0)
    .map((o) => `<span class="seg o-${o}" style="width:${((s.outcomes[o] / total) * 100).toFixed(2)}%" title="${h(`${label(o)}: ${s.outcomes[o]}`)}"></span>`).join('');
  const outcomeList = OUTCOMES.map((o) => `<li><span class="badge o-${o}">${h(label(o))}</span> <b>${s.outcomes[o]}</b></li>`).join('');
  const rates = (['floor', 'dummy', 'suggestion', 'empty', 'error'] as const)
    .map((k) => `<li>${k} <b>${pct(s.rates[k])}</b></li>`).join('');
  const latency = (['p50', 'p90', 'p99', 'max'] as const).map((k) => `<li>${k} <b>${ms(s.latencyMs[k])}</b></li>`).join('');
  const parts = [
    card('Top-1 accuracy', `<div class="big">${pct(s.top1Accuracy)}</div>${ci(m.intervals.top1Accuracy)}<div class="hint">(correct + fallback ok) / labeled without error</div>`, 'hero'),
    card('Answerable accuracy', `<div class="big">${pct(s.answerableAccuracy)}</div>${ci(m.intervals.answerableAccuracy)}<div class="hint">correct / (correct + wrong + abstained)</div>`),
    card(`Outcomes · ${s.total} questions`, `<div class="bar">${outcomeBar}</div><ul class="kv">${outcomeList}</ul>`, 'wide'),
    card('Rates (top-1)', `<ul class="kv">${rates}</ul>`),
    card('Latency', `<ul class="kv">${latency}</ul>`),
  ];
  parts.push(card('Ranking', `<ul class="kv"><li>hit@1 <b>${pct(m.rank.hit1)}</b></li><li>hit@3 <b>${pct(m.rank.hit3)}</b></li><li>hit@5 <b>${pct(m.rank.hit5)}</b></li><li>MRR <b>${m.rank.mrr?.toFixed(3) ?? 'n/a'}</b></li></ul>`));
  if (m.consistency) parts.push(consistencyCard(m));
  const rec = m.thresholds.recommended;
  if (rec) parts.push(card('Recommended floor threshold', `<div class="big">${h(rec.threshold)}</div><div class="hint">${h(m.thresholds.objective)} ${rec.objective.toFixed(3)} · answers ${pct(rec.answeredCorrectly)} of answerable correctly · refuses ${pct(rec.refusedCorrectly)} of out-of-scope · coverage ${pct(rec.coverage)}</div>`));
  return `<div class="cards">${parts.join('')}</div>`;
}

/** A table of the slices of one dimension, worst first; a row click filters the question table (language, tag). */
export function sliceTable(list: SliceView[], dim: Dimension, limit = 15): string {
  if (list.length === 0) return '';
  const filterable = dim !== 'category';
  const rows = list.slice(0, limit).map((s) => {
    const attrs = filterable ? ` class="filterable" data-filter="${dim}" data-value="${h(s.key)}" title="show these questions"` : '';
    const range = s.low !== null && s.high !== null ? ` <span class="ci">${pct(s.low, 0)}–${pct(s.high, 0)}</span>` : '';
    return `<tr${attrs}><td>${h(s.key)}</td><td class="num">${pct(s.accuracy)}${range}</td><td class="num">${s.failures}</td><td class="num">${s.errors}</td><td class="num">${s.total}</td></tr>`;
  });
  const more = list.length > limit ? `<tr><td colspan="5" class="hint">… ${list.length - limit} more ${dim} slices</td></tr>` : '';
  return `<table class="slices"><caption>By ${dim}, worst first</caption><thead><tr><th>${dim}</th><th>top-1 accuracy</th><th>failing</th><th>errors</th><th>questions</th></tr></thead><tbody>${rows.join('')}${more}</tbody></table>`;
}

/** The most frequent expected → got pairs; a click on an example id searches for it. */
export function confusionTable(list: Confusion[]): string {
  if (list.length === 0) return '<p class="hint">No wrong answers to group.</p>';
  const rows = list.map((c) => `<tr><td>${h(c.expected)}</td><td>${h(c.got)}</td><td class="num">${c.count}</td><td>${c.examples.map((id) => `<a href="#questions" class="example" data-id="${h(id)}">${h(id)}</a>`).join(' ')}</td></tr>`);
  return `<table class="slices"><caption>Top confusions: expected → got instead</caption><thead><tr><th>expected</th><th>got instead</th><th>count</th><th>examples</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

/** With JavaScript off: the first failing questions, so the page still says what is wrong. */
export function noscriptFailures(results: Iterable<QuestionResult>, limit = 30): string {
  const failing = firstFailing(results, limit);
  const rows = failing.first.map((r) => {
    const top = top1(r);
    return `<tr><td>${h(r.id)}</td><td><span class="badge o-${r.outcome}">${h(label(r.outcome))}</span></td><td>${h(truncate(r.question, 120))}</td><td>${h(describeExpected(r.expected))}</td><td>${h(describeGot(r))}${top ? `<div class="answer">${h(truncate(top.answer, 160))}</div>` : ''}</td><td>${h(r.reason ?? '')}</td></tr>`;
  });
  return `<noscript><p class="hint">JavaScript is off: the interactive table (filters, search, every question) needs it. The first ${failing.first.length} of ${failing.count} failing questions:</p><table class="qt"><thead><tr><th>id</th><th>outcome</th><th>question</th><th>expected</th><th>got</th><th>why</th></tr></thead><tbody>${rows.join('')}</tbody></table></noscript>`;
}
