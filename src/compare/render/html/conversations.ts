import { OUTCOME_CLASSES, type Outcome } from '../../../model/outcome.js';
import type { ConversationVerdict } from '../../../model/report.js';
import { escapeHtml as h } from '../../../report/escape.js';
import type { Comparison, ConversationChange, ConversationComparison, ConversationCoverage, ConversationSide, EditedConversation } from '../../schema.js';
import { brokenFixed, conversationSets, passRateText } from '../conversations.js';

/** Rows per list of conversations on the page; compare.json lists the first `listLimit`, changes.jsonl every one. */
export const CONVERSATION_ROWS = 200;

const plural = (n: number, word: string): string => `${n.toLocaleString('en')} ${word}${n === 1 ? '' : 's'}`;
const badge = (o: Outcome): string => `<span class="badge o-${o}">${h(OUTCOME_CLASSES[o].label)}</span>`;
const verdict = (v: ConversationVerdict): string => `<span class="badge v-${v}">${h(v)}</span>`;
const ending = (s: ConversationSide): string => `${verdict(s.verdict)}${s.at === null ? '' : ` at turn ${s.at}`}`;
const cell = (label: string, body: string, cls = ''): string => `<td${cls ? ` class="${cls}"` : ''} data-label="${h(label)}">${body}</td>`;
const idCell = (id: string, sub: string): string => cell('conversation', `${h(id)}<div class="sub">${h(sub)}</div>`, 'id');

/** The first screen's card: broken and fixed conversations and the pass rate; empty without conversations. */
export function conversationCard(c: Comparison): string {
  const v = c.conversations;
  if (!v) return '';
  const n = v.counts;
  return `<section class="card"><h3>Conversations</h3><div class="big"><span class="${n.broken ? 'bad' : ''}">${n.broken.toLocaleString('en')}</span> <small>broken</small></div>` +
    `<div class="big"><span class="${n.fixed ? 'good' : ''}">${n.fixed.toLocaleString('en')}</span> <small>fixed</small></div>` +
    (n.quarantined > 0 ? `<div class="ci">${plural(n.quarantined, 'conversation')} broke, but quarantined</div>` : '') +
    `<div class="ci">${h(passRateText(v, '→'))} on ${plural(n.common, 'common conversation')}</div><a href="#conversations" class="jump">the conversations →</a></section>`;
}

/** When a list holds fewer than its count: where the others are. */
function more(shown: number, listed: number, total: number): string {
  if (shown >= total) return '';
  return `<p class="hint">The first ${shown.toLocaleString('en')} of ${total.toLocaleString('en')}${listed > shown ? ` (compare.json lists ${listed.toLocaleString('en')})` : ''}; changes.jsonl lists every one.</p>`;
}

function changes(title: string, list: ConversationChange[], total: number): string {
  if (total === 0) return '';
  const rows = list.slice(0, CONVERSATION_ROWS).map((c) => {
    const t = c.turn;
    return `<tr class="row">${idCell(c.id, [...c.tags, plural(c.head.turns, 'turn')].join(' · '))}` +
      cell('base → head', `${ending(c.base)} → ${ending(c.head)}`) +
      cell('turn that changed', `turn ${t.turn}: ${badge(t.base)} → ${badge(t.head)}<div class="sub">${h(t.question)}</div>`) +
      cell('why (head)', t.reason === null ? '<span class="hint">passed</span>' : h(t.reason)) +
      '</tr>';
  });
  const head = '<th style="width:20%">conversation</th><th style="width:20%">base → head</th><th style="width:28%">turn that changed</th><th>why (head)</th>';
  return `<div class="panel"><table class="changes conv"><caption>${h(title)} (${total.toLocaleString('en')})</caption><thead><tr>${head}</tr></thead><tbody>${rows.join('')}</tbody></table></div>${more(Math.min(list.length, CONVERSATION_ROWS), list.length, total)}`;
}

/** Conversations in one run only, or edited: a folded table each. */
function apart(title: string, total: number, head: string, rows: string[], listed: number): string {
  if (total === 0) return '';
  return `<details class="conv-apart"><summary>${h(title)} (${total.toLocaleString('en')})</summary><div class="panel"><table class="changes conv"><thead><tr>${head}</tr></thead><tbody>${rows.slice(0, CONVERSATION_ROWS).join('')}</tbody></table></div>${more(Math.min(listed, CONVERSATION_ROWS), listed, total)}</details>`;
}

const coverageRows = (list: ConversationCoverage[]): string[] =>
  list.map((a) => `<tr class="row">${idCell(a.id, a.tags.join(' · '))}${cell('turns', String(a.turns), 'num')}${cell('verdict', ending(a))}${cell('first question', h(a.question))}</tr>`);

const editedRows = (list: EditedConversation[]): string[] =>
  list.map((e) => `<tr class="row">${idCell(e.id, e.tags.join(' · '))}${cell('turns', `${e.base.turns} → ${e.head.turns}`, 'num')}${cell('edited turns', e.editedTurns.join(', ') || '—')}${cell('verdict', `${ending(e.base)} → ${ending(e.head)}`)}</tr>`);

/** The conversations paired by id and turn: how the sets relate, broken and fixed ones, then those apart. Empty without conversations. */
export function conversationsSection(c: Comparison): string {
  const v: ConversationComparison | undefined = c.conversations;
  if (!v) return '';
  const n = v.counts;
  return `<h2 id="conversations">Conversations</h2>
<p>Conversations: ${h(conversationSets(v))}; ${h(brokenFixed(v))}; ${h(passRateText(v, '→'))} over the common ones.<br><span class="hint">Paired by id, their turns by number; a conversation is compared when both runs hold it with the same turns. Broken: passed, now failed or in error; the turn shown is the first whose outcome changed. One that ended in error is not a regression for --fail-on regression.</span></p>
${changes('Broken: passed, now failed or in error', v.broken, n.broken)}
${changes('Broke, but quarantined (not counted as regressions)', v.quarantined, n.quarantined)}
${changes('Fixed: failed or in error, now passed', v.fixed, n.fixed)}
${n.broken + n.quarantined + n.fixed === 0 ? '<p class="hint">No conversation broke or was fixed.</p>' : ''}
${apart('Added conversations', n.added, '<th>conversation</th><th class="num">turns</th><th>verdict</th><th>first question</th>', coverageRows(v.added), v.added.length)}
${apart('Removed conversations', n.removed, '<th>conversation</th><th class="num">turns</th><th>verdict</th><th>first question</th>', coverageRows(v.removed), v.removed.length)}
${apart('Changed conversations (a turn edited, added or removed): not compared', n.changed, '<th>conversation</th><th class="num">turns</th><th>edited turns</th><th>verdict</th>', editedRows(v.changed), v.changed.length)}`;
}
