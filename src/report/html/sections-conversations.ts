import { breaksMost, checkRates, verdictCounts, whyConversation } from '../conversations.js';
import { pct, truncate } from '../describe.js';
import { escapeHtml as h } from '../escape.js';
import { failingConversations, firstFailingConversations } from '../insights.js';
import type { ConversationMetrics, Interval } from '../../model/metrics.js';
import type { QuestionResult } from '../../model/report.js';
import type { PageContext } from './page.js';

const card = (title: string, body: string, cls = ''): string => `<section class="card${cls ? ` ${cls}` : ''}"><h3>${h(title)}</h3>${body}</section>`;

const ci = (i: Interval): string => (i.low !== null && i.high !== null ? `<div class="ci">95% CI ${pct(i.low)}–${pct(i.high)} · ${i.successes}/${i.n}</div>` : '');

/** The overview's card: the pass rate, how the conversations ended, and the way to the failing ones. */
export function conversationsCard(c: ConversationMetrics): string {
  const failing = failingConversations(c);
  const link = failing > 0
    ? `<a href="#conversations" class="to-threads" data-verdict="failing">${failing} failing conversation${failing === 1 ? '' : 's'} →</a>`
    : '<a href="#conversations" class="to-threads" data-verdict="">every conversation →</a>';
  const { failed, error } = c.verdicts;
  return card(`Conversations passed · ${c.count}`, `<div class="big">${pct(c.passRate.value)}</div>${ci(c.passRate)}<div class="over">${failed} failed, ${error} ended in error (apart)</div>${link}`, 'figure conv-card');
}

/** Accuracy by turn position, where conversations fail or end in error. */
function byTurnTable(c: ConversationMetrics): string {
  const rows = c.byTurn.map((p) => {
    const range = p.accuracy.low !== null && p.accuracy.high !== null ? ` <span class="ci">${pct(p.accuracy.low, 0)}–${pct(p.accuracy.high, 0)}</span>` : '';
    return `<tr><td class="num">${p.turn}</td><td class="num">${p.asked}</td><td class="num">${pct(p.accuracy.value)}${range}</td><td class="num">${p.failedHere}</td><td class="num">${p.errorsHere}</td></tr>`;
  });
  return `<div class="table-wrap"><table class="slices"><caption>By turn position</caption><thead><tr><th class="num">turn</th><th class="num">asked</th><th class="num">accuracy</th><th class="num">failed here</th><th class="num">error here</th></tr></thead><tbody>${rows.join('')}</tbody></table></div>`;
}

/** With JavaScript off: the first failing conversations, each at its deciding turn. */
function noscriptConversations(results: Iterable<QuestionResult>, count: number, limit = 30): string {
  if (count === 0) return '<noscript><p class="hint">Every conversation passed. JavaScript is off: the threads need it.</p></noscript>';
  const first = firstFailingConversations(results, limit);
  const rows = first.map((r) => {
    const t = r.conversation!;
    return `<tr><td class="id">${h(t.id)}</td><td><span class="badge v-${t.verdict}">${h(t.verdict)}</span></td><td class="num">${t.turn} of ${t.turns}</td><td>${h(truncate(r.question, 120))}</td><td>${h(whyConversation(r))}</td></tr>`;
  });
  return `<noscript><p class="hint">JavaScript is off: the threads (every turn, filters) need it. The first ${first.length} of ${count} failing conversations, at the turn that decided them:</p><div class="table-wrap"><table class="qt"><thead><tr><th>conversation</th><th>verdict</th><th>turn</th><th>question</th><th>why</th></tr></thead><tbody>${rows.join('')}</tbody></table></div></noscript>`;
}

/**
 * The conversations as threads: their figures, then every conversation (the page's script builds the threads from the
 * page data, failing ones first, a page at a time), and the first failing ones without JavaScript (a pass over the
 * results up to the last of them).
 */
export function* conversationsSection({ metrics }: PageContext, results: Iterable<QuestionResult>): Generator<string> {
  const c = metrics.conversations;
  if (!c) return;
  const more = [breaksMost(c), checkRates(c) && `turn checks: ${checkRates(c)}`].filter((s) => s !== '');
  yield `<div class="grid2 conv-figures"><div class="cards">
${card('Pass rate', `<div class="big">${pct(c.passRate.value)}</div>${ci(c.passRate)}<div class="hint">${h(verdictCounts(c))}; those in error apart</div>`)}
${card('Turn accuracy', `<div class="big">${pct(c.turnAccuracy.value)}</div>${ci(c.turnAccuracy)}<div class="hint">${h(more.join('; ') || 'no conversation failed')}</div>`)}
</div>${byTurnTable(c)}</div>
<div id="c-controls" class="controls" hidden>
<select id="c-verdict" aria-label="verdict"></select>
<select id="c-outcome" aria-label="a turn's outcome"></select>
<select id="c-category" aria-label="category"></select>
<select id="c-language" aria-label="language"></select>
<select id="c-tag" aria-label="tag"></select>
<input id="c-search" type="search" placeholder="search id, user, questions, answers, why…" aria-label="search conversations">
<select id="c-size" aria-label="conversations per page"></select>
<button id="c-prev" type="button">‹ prev</button><button id="c-next" type="button">next ›</button>
</div>
<div id="c-status" class="status"></div>
`;
  yield noscriptConversations(results, failingConversations(metrics.conversations));
  yield `
<div id="c-threads" class="threads"></div>
<p class="hint">Failing conversations first (failed, or ended in error), each open on its turns: what the user asked, the top-1 answer, what was expected, and the turn checks; the turn that decided the verdict is marked. "in the table" shows the turn among the questions.</p>`;
}
