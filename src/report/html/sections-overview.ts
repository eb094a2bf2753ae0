import { consistencyCard } from '../consistency.js';
import { ms, pct } from '../describe.js';
import { escapeHtml as h } from '../escape.js';
import { crossValidationText, floorFigures, IN_SAMPLE_NOTE } from '../floor.js';
import { figureInterval, figureValue, headline } from '../headline.js';
import type { Interval } from '../../model/metrics.js';
import { needsAttention, OUTCOME_CLASSES, OUTCOMES, outcomesShown, type Outcome } from '../../model/outcome.js';
import { gotoLink, type PageContext } from './page.js';
import { conversationsCard } from './sections-conversations.js';

const ci = (i: Interval | undefined): string =>
  i && i.low !== null && i.high !== null ? `<div class="ci">95% CI ${pct(i.low)}–${pct(i.high)} · ${i.successes}/${i.n}</div>` : '';

export const card = (title: string, body: string, cls = ''): string => `<section class="card${cls ? ` ${cls}` : ''}"><h3>${h(title)}</h3>${body}</section>`;

const label = (o: Outcome): string => OUTCOME_CLASSES[o].label;

/** The four figures an editor reads first (src/report/headline.ts, as on the console and in summary.md). */
function headlineCards({ metrics, report }: PageContext): string {
  const cards = headline(metrics, report.coverage).map((f) => {
    const interval = figureInterval(f);
    const more = f.section ? ` <a href="#${f.section}">details →</a>` : '';
    return card(f.name, `<div class="big">${h(figureValue(f))}</div>${interval ? `<div class="ci">95% CI ${h(interval)}</div>` : ''}<div class="over">over ${h(f.over)}${more}</div>`, 'figure');
  });
  // a run with conversations: their pass rate is a headline figure too
  if (metrics.conversations) cards.push(conversationsCard(metrics.conversations));
  return `<div class="cards headline">${cards.join('')}</div>`;
}

/** The outcome bar and counts, with the way to the failing questions. */
function outcomesCard({ report, attention }: PageContext): string {
  const s = report.summary;
  const total = Math.max(1, s.total);
  const bar = OUTCOMES.filter((o) => s.outcomes[o] > 0)
    .map((o) => `<span class="seg o-${o}" style="width:${((s.outcomes[o] / total) * 100).toFixed(2)}%" title="${h(`${label(o)}: ${s.outcomes[o]}`)}"></span>`).join('');
  // the outcomes only a conversation's turn gets are listed only for a run with conversations
  const list = outcomesShown(report.metrics.conversations !== undefined).map((o) => `<li>${gotoLink({ outcome: o }, `<span class="badge o-${o}">${h(label(o))}</span>`, '', `show the ${label(o)} questions`)} <b>${s.outcomes[o]}</b></li>`).join('');
  const which = OUTCOMES.filter(needsAttention).map(label).join(', ');
  const cta = attention > 0
    ? gotoLink({ outcome: 'failing' }, `${attention} failing question${attention === 1 ? '' : 's'} →`, 'cta', `show them: ${which}`)
    : gotoLink({ outcome: '' }, 'no failing question: every question →', 'cta calm');
  return card(`Outcomes · ${s.total} questions`, `<div class="outcomes"><div><div class="bar">${bar}</div><ul class="kv">${list}</ul></div><div>${cta}</div></div>`, 'outcome-card');
}

/** The recommended floor, with what it optimizes and from where the run can judge one. */
export function floorAdvice({ metrics }: PageContext, linkToCurve = true): string {
  const t = metrics.thresholds;
  const rec = t.recommended;
  const from = t.replayableFrom === null ? '' : ` The service answered nothing below <b>${h(t.replayableFrom)}</b> in this run, so no lower floor can be judged from it.`;
  if (!rec) return `<p class="hint">No floor to recommend: ${t.answerable === 0 ? 'no in-scope question' : 'no out-of-scope question'} to weigh it on.${from}</p>`;
  const validated = crossValidationText(t);
  return `<div class="big">${h(rec.threshold)}</div><p class="hint">Chosen for: ${h(t.objectiveText)} (${rec.objective.toFixed(3)} at this floor). There the service ${h(floorFigures(rec, t.outOfScope > 0))}, ${h(IN_SAMPLE_NOTE)}.${from}${linkToCurve ? ' <a href="#floor">The curve →</a>' : ''}</p>${validated ? `<p class="hint cross-validated">${h(validated)}.</p>` : ''}`;
}

/** The smaller cards: top-1 accuracy, rates, latency, ranking, consistency, the recommended floor. */
function moreCards({ report, metrics: m, ...rest }: PageContext): string {
  const s = report.summary;
  const rates = (['floor', 'dummy', 'suggestion', 'empty', 'error'] as const).map((k) => `<li>${k} <b>${pct(s.rates[k])}</b></li>`).join('');
  const latency = (['p50', 'p90', 'p99', 'max'] as const).map((k) => `<li>${k} <b>${ms(s.latencyMs[k])}</b></li>`).join('');
  return `<div class="cards">${[
    card('Top-1 accuracy', `<div class="big">${pct(s.top1Accuracy)}</div>${ci(m.intervals.top1Accuracy)}<div class="hint">(correct + fallback ok) / labeled without error</div>`, 'hero'),
    card('Rates (top-1)', `<ul class="kv">${rates}</ul>`),
    card('Latency', `<ul class="kv">${latency}</ul>`),
    card('Ranking', `<ul class="kv"><li>hit@1 <b>${pct(m.rank.hit1)}</b></li><li>hit@3 <b>${pct(m.rank.hit3)}</b></li><li>hit@5 <b>${pct(m.rank.hit5)}</b></li><li>MRR <b>${m.rank.mrr?.toFixed(3) ?? 'n/a'}</b></li></ul>`),
    consistencyCard(m),
    card('Recommended floor threshold', floorAdvice({ report, metrics: m, ...rest }), 'wide floor-card'),
  ].join('')}</div>`;
}

/** The first screen: headline figures, outcomes and the failing questions one click away, then the other figures. */
export function overviewSection(page: PageContext): string {
  return headlineCards(page) + outcomesCard(page) + moreCards(page);
}
