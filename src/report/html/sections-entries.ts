import { pct, truncate } from '../describe.js';
import { escapeHtml as h } from '../escape.js';
import { fallbackMissedText, unlistedMisses } from '../insights.js';
import type { Confusion, Entry, EntryFlow } from '../../model/metrics.js';
import { OUT_OF_SCOPE, REFUSED } from '../../score/metrics/entries.js';
import { normalizeText } from '../../model/normalize.js';
import { gotoLink, type PageContext } from './page.js';

/** Entries the table shows at most (worst F1 first); report.json has every one. */
export const MAX_ENTRY_ROWS = 500;
/** Entries in the confusion matrix: the most confused ones. */
export const MATRIX_SIZE = 12;

const name = (e: Entry): string => e.label ?? `#${e.sequence}`;
const num = (v: number | null): string => (v === null ? '' : String(Math.round(v * 1e4) / 1e4));
/** Worst F1 first; entries without an F1 (never expected, or never answered) after, the busier first. */
const worstFirst = (a: Entry, b: Entry): number =>
  (a.f1 ?? 2) - (b.f1 ?? 2) || b.expected + b.answered - (a.expected + a.answered) || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

const flowTitle = (f: EntryFlow): string => `${f.count} question${f.count === 1 ? '' : 's'}, e.g. ${f.examples.join(', ')}`;

/** Flow chips: each filters the question table to the questions it counts (with example ids on hover, when `titled`). */
function chips(e: Entry, flows: EntryFlow[], side: 'losesTo' | 'takesFrom', titled: boolean): string {
  return flows.map((f) => {
    const filter = side === 'losesTo' ? { expected: e.key, got: f.key } : { expected: f.key, got: e.key };
    return gotoLink(filter, `${h(f.key)} <b>${f.count}</b>`, 'chip', titled ? flowTitle(f) : '');
  }).join('');
}

function entryRow(e: Entry): string {
  const cells = [
    `<td class="entry"><button type="button" class="toggle" aria-expanded="false" aria-label="show the answer text" hidden>▸</button>${e.expected > 0 ? gotoLink({ expected: e.key }, h(name(e))) : `<b>${h(name(e))}</b>`}${e.text === null ? '' : `<div class="answer">${h(truncate(e.text, 120))}</div>`}</td>`,
    `<td>${h(e.category ?? '')}</td>`,
    `<td class="num" data-v="${e.expected}">${e.expected > 0 ? gotoLink({ expected: e.key }, String(e.expected)) : '0'}</td>`,
    `<td class="num" data-v="${num(e.recall)}">${e.recall === null ? '—' : pct(e.recall)}</td>`,
    `<td class="num" data-v="${e.answered}">${e.answered > 0 ? gotoLink({ got: e.key }, String(e.answered)) : '0'}</td>`,
    `<td class="num" data-v="${num(e.precision)}">${e.precision === null ? '—' : pct(e.precision)}</td>`,
    `<td class="num" data-v="${num(e.f1)}">${e.f1 === null ? '—' : e.f1.toFixed(2)}</td>`,
    `<td class="num" data-v="${e.refused}">${e.refused > 0 ? gotoLink({ expected: e.key, got: REFUSED }, String(e.refused)) : '0'}</td>`,
    `<td><div class="chips">${chips(e, e.losesTo.slice(0, 3), 'losesTo', true)}</div></td>`,
    `<td><div class="chips">${chips(e, e.takesFrom.slice(0, 3), 'takesFrom', true)}</div></td>`,
  ];
  const facts = [['sequence number', e.sequence === null ? '—' : String(e.sequence)], ['got right', `${e.correct} of the ${e.expected} questions that expect it`], ['right', `${e.answeredCorrectly} of the ${e.answered} questions it answered`]]
    .map(([k, v]) => `<div><span class="k">${h(k)}</span><span class="v">${h(v)}</span></div>`).join('');
  // the flows past the three in the row
  const flows = (title: string, list: EntryFlow[], side: 'losesTo' | 'takesFrom') =>
    list.length <= 3 ? '' : `<div><span class="k">${title}</span> <span class="chips">${chips(e, list.slice(3), side, false)}</span></div>`;
  const detail = `<tr class="entry-detail" hidden><td colspan="10"><div class="entry-text">${e.text === null ? '<span class="hint">The run never showed this entry\'s answer (give the knowledge base with --kb to see it).</span>' : h(e.text)}</div><div class="facts">${facts}</div>${flows('also loses questions to', e.losesTo, 'losesTo')}${flows('also takes questions from', e.takesFrom, 'takesFrom')}</td></tr>`;
  return `<tr class="entry" data-category="${h(e.category ?? '')}">${cells.join('')}</tr>${detail}`;
}

const ENTRY_HEAD: [key: string, label: string, cls: string, title: string][] = [
  ['entry', 'entry', '', 'label, else #sequence number; below it, its answer'],
  ['category', 'category', '', ''],
  ['expected', 'questions', 'num', 'labeled questions without error that expect it'],
  ['recall', 'recall', 'num', 'of its questions, answered with it'],
  ['answered', 'answered', 'num', 'questions whose top-1 is it'],
  ['precision', 'precision', 'num', 'of its answers, right'],
  ['f1', 'F1', 'num', 'harmonic mean of recall and precision'],
  ['refused', 'refused', 'num', 'of its questions, refused (floor, small talk or no answer)'],
  ['', 'loses to', '', 'where its questions went instead'],
  ['', 'takes from', '', 'whose questions it answered'],
];

/** The entries table: worst F1 first, sortable and filterable in the page, each row opening on its answer text. */
export function entryTable({ metrics }: PageContext): string {
  const all = [...metrics.entries].sort(worstFirst);
  if (all.length === 0) return '<p class="hint">No question expected or got a knowledge-base entry.</p>';
  const shown = all.slice(0, MAX_ENTRY_ROWS);
  const categories = [...new Set(all.map((e) => e.category ?? ''))].filter((c) => c !== '').sort();
  const head = ENTRY_HEAD.map(([key, text, cls, title], k) =>
    `<th${key ? ` data-esort="${k}"` : ''}${cls ? ` class="${cls}"` : ''}${title ? ` title="${h(title)}"` : ''}${key === 'f1' ? ' aria-sort="ascending"' : ''}>${text}</th>`).join('');
  const more = all.length > shown.length ? `<p class="hint">The ${shown.length} worst of ${all.length} entries; report.json has every one.</p>` : '';
  return `<div class="controls" id="e-controls" hidden><input id="e-search" type="search" placeholder="search entry, answer text…" aria-label="search entries"><select id="e-category" aria-label="entry category"><option value="">all categories</option>${categories.map((c) => `<option>${h(c)}</option>`).join('')}</select><span id="e-status" class="status"></span></div>
<div class="table-wrap e-wrap"><table id="e-table" class="slices entries"><thead><tr>${head}</tr></thead><tbody>${shown.map(entryRow).join('')}</tbody></table></div>${more}`;
}

/**
 * The entries of the most frequent confusions between two entries: the pairs most first, both ends of each, until
 * `size` entries (so the matrix shows who takes whose questions, not entries that each lose a little to everyone).
 */
function mostConfused(entries: Entry[], size: number): Entry[] {
  const byKey = new Map(entries.map((e) => [e.key, e]));
  const pairs = entries.flatMap((e) => e.losesTo.filter((f) => f.key !== e.key && byKey.has(f.key)).map((f) => [e.key, f.key, f.count] as const))
    .sort((a, b) => b[2] - a[2] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : 1));
  const chosen = new Set<string>();
  for (const [from, to] of pairs) {
    for (const key of [from, to]) if (chosen.size < size) chosen.add(key);
    if (chosen.size >= size) break;
  }
  return [...chosen].map((key) => byKey.get(key)!);
}

/** Rows expected, columns got: who takes whose questions among the most confused entries. */
export function confusionMatrix({ metrics }: PageContext, size = MATRIX_SIZE): string {
  const top = mostConfused(metrics.entries, size);
  if (top.length < 2) return '<p class="hint">No two entries take each other\'s questions.</p>';
  const count = (e: Entry, key: string): number => e.losesTo.find((f) => f.key === key)?.count ?? 0;
  const max = Math.max(1, ...top.flatMap((e) => top.map((g) => (g === e ? 0 : count(e, g.key)))));
  const cell = (e: Entry, got: Entry | typeof REFUSED, n: number, cls = ''): string => {
    const key = typeof got === 'string' ? got : got.key;
    const shade = cls ? '' : ` style="--a:${((n / max) * 0.6).toFixed(2)}"`;
    const tip = `expected ${e.key}, got ${key}: ${n}`;
    return `<td${cls ? ` class="${cls}"` : ''}${shade} title="${h(tip)}">${n === 0 ? '' : gotoLink({ expected: e.key, got: key }, String(n), '', tip)}</td>`;
  };
  const head = top.map((e, k) => `<th scope="col" title="${h(e.key)}">${k + 1}</th>`).join('');
  const rows = top.map((e, k) => {
    const shown = top.reduce((n, g) => n + (g === e ? 0 : count(e, g.key)), 0);
    const refused = e.refused;
    const other = Math.max(0, e.expected - e.correct - refused - shown);
    return `<tr><th scope="row" title="${h(e.key)}"><span class="n">${k + 1}</span> ${h(name(e))}</th>${top.map((g) => (g === e ? cell(e, g, e.correct, 'diag') : cell(e, g, count(e, g.key)))).join('')}${cell(e, REFUSED, refused, 'diag')}<td class="diag" title="lost to entries outside this matrix">${other || ''}</td></tr>`;
  });
  return `<figure class="matrix-box"><figcaption>Who takes whose questions: the ${top.length} most confused entries</figcaption><div class="matrix-wrap"><table class="matrix"><thead><tr><th scope="col">expected ↓ · got →</th>${head}<th scope="col">refused</th><th scope="col">other</th></tr></thead><tbody>${rows.join('')}</tbody></table></div><div class="hint">Rows: the entry a question expects; columns: the entry its top-1 is (numbered as the rows). The diagonal counts right answers. Click a number for its questions.</div></figure>`;
}

/**
 * The entry key a confusion's side names (a label or a sequence number), when the entry table has it; compared as
 * the matcher compares them (NFKC, case folding), since a row may write `Billing` for the label `billing`.
 */
function keyResolver(entries: Entry[]): (name: string) => string | undefined {
  const keys = new Map<string, string>();
  for (const e of entries) {
    if (e.sequence !== null && !keys.has(String(e.sequence))) keys.set(String(e.sequence), e.key);
    keys.set(normalizeText(e.key), e.key);
  }
  return (name) => keys.get(normalizeText(name));
}

const examples = (c: Confusion): string => c.examples.map((id) => gotoLink({ id }, h(id), 'example')).join(' ');

/** In-scope confusions (expected → got instead), most first; a count opens the pair's questions. */
export function confusionList({ metrics }: PageContext, limit = 15): string {
  const list = metrics.confusions.slice(0, limit);
  if (list.length === 0) return '<p class="hint">No wrong answer between entries.</p>';
  const key = keyResolver(metrics.entries);
  const rows = list.map((c) => {
    const [expected, got] = [key(c.expected), key(c.got)];
    const n = expected !== undefined && got !== undefined ? gotoLink({ expected, got }, String(c.count)) : String(c.count);
    return `<tr><td>${h(c.expected)}</td><td>${h(c.got)}</td><td class="num">${n}</td><td>${examples(c)}</td></tr>`;
  });
  return `<div class="table-wrap"><table class="slices"><caption>In-scope confusions: expected → got instead</caption><thead><tr><th>expected</th><th>got instead</th><th class="num">count</th><th>examples</th></tr></thead><tbody>${rows.join('')}</tbody></table></div>`;
}

/** Out-of-scope questions answered anyway, by the entry that answered them: apart from the confusions between entries. */
export function outOfScopeList({ report, metrics }: PageContext, limit = 15): string {
  const list = metrics.outOfScopeMisses.slice(0, limit);
  const outcomes = report.summary.outcomes;
  if (outcomes.fallback_missed === 0) return '<p class="hint">No out-of-scope question was answered.</p>';
  // report.json keeps the 50 entries that answered most: the rows add up to the count all the same
  const rest = unlistedMisses(outcomes, list);
  const more = rest > 0 ? `<tr><td colspan="3" class="hint">… ${rest} more, answered by entries not listed: ${gotoLink({ outcome: 'fallback_missed' }, `every one of the ${outcomes.fallback_missed}`)}</td></tr>` : '';
  const key = keyResolver(metrics.entries);
  const rows = list.map((c) => {
    const got = key(c.got);
    return `<tr><td>${got !== undefined ? gotoLink({ got }, h(c.got), '', 'every question it answered') : h(c.got)}</td><td class="num">${got !== undefined ? gotoLink({ expected: OUT_OF_SCOPE, got }, String(c.count)) : c.count}</td><td>${examples(c)}</td></tr>`;
  });
  return `<div class="table-wrap"><table class="slices out-of-scope"><caption>Out-of-scope questions answered anyway (fallback missed): ${h(fallbackMissedText(outcomes))}, by the entry that answered</caption><thead><tr><th>answered by</th><th class="num">count</th><th>examples</th></tr></thead><tbody>${rows.join('')}${more}</tbody></table></div>`;
}

/** The per-entry view: the table, the matrix, then confusions and out-of-scope misses side by side. */
export function entriesSection(page: PageContext): string {
  return `<p class="hint">One row per knowledge-base entry a question expected or got, worst F1 first. <b>recall</b>: of the questions that expect it, how many got it; <b>precision</b>: of the questions it answered, how many were right; <b>loses to</b> / <b>takes from</b>: where its questions went instead, and whose questions it answered. Click an entry or a number for its questions, ▸ for its answer text, a column head to sort.</p>
${entryTable(page)}
${confusionMatrix(page)}
<div class="grid2">
${confusionList(page)}
${outOfScopeList(page)}
</div>`;
}
