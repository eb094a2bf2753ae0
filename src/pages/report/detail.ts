import { scoreText } from '../shared/data.js';
import { el, fact } from '../shared/dom.js';
import { A, R, T, type PageAnswer, type PageAnswerFields, type PageRow } from './data.js';
import type { PageView } from './view.js';

/** A fact of the detail: its name, and its value for row i (null or undefined: the question has none, not shown). */
type Fact = readonly [string, (r: PageRow, view: PageView, i: number) => string | null | undefined];

const num = (v: number | null): string | null => (v === null ? null : String(v));

/**
 * What the detail of a question says, in this order, before its dataset columns and its ranked answers.
 * A new fact is one line here (and, when the page data lacks it, a field of PageRow).
 */
export const FACTS: readonly Fact[] = [
  ['why', (r) => r[R.why]],
  ['question', (r) => r[R.question]],
  ['expected', (r) => r[R.expected] || '(nothing: unlabeled)'],
  ['outcome', (_, view, i) => view.outcomeLabelOf(i)],
  ['category', (r, { data }) => data.categories[r[R.category]]],
  ['language', (r, { data }) => data.languages[r[R.language]]],
  ['tags', (r, { data }) => r[R.tags].map((t) => data.tags[t]).join(', ') || '—'],
  ['latency', (r) => (r[R.latency] === null ? '—' : `${r[R.latency]} ms`)],
  ['attempts', (r) => String(r[R.attempts])],
  ['dataset line', (r) => String(r[R.line])],
  ['error', (r) => r[R.error]],
  ['first matching answer at rank', (r) => num(r[R.rank])],
  ['expected entry', (r, { data }) => (r[R.expectedEntry] >= 0 ? data.entries[r[R.expectedEntry]] : null)],
  ['top-1 counts as', (r, { data }) => (r[R.gotEntry] >= 0 ? data.entries[r[R.gotEntry]] : null)],
  ['post-processed answer', (r) => (r[R.turn] ? null : r[R.detail]?.post)], // a turn shows it in its thread
  ['sent', (r) => r[R.detail]?.sent],
  ['asked as', (r) => { const reply = r[R.detail]?.reply; return reply ? `--output ${reply.output}` : null; }],
  ['conversation', (r, { data }) => {
    const t = r[R.turn];
    if (!t) return null;
    return `${t[T.conversation]}, turn ${t[T.turn]} of ${t[T.turns]} (${data.verdicts[t[T.verdict]]}${t[T.at] === null ? '' : ` at turn ${t[T.at]}`}) · user ${t[T.user]}`;
  }],
];

/** A column of the ranked answers: its head, and its cell for an answer at rank k + 1 with its score. */
type Column = readonly [string, (a: PageAnswer, score: number, k: number, view: PageView, i: number) => HTMLTableCellElement];

/** The answer's other fields (2.4) in one line, `theme Bills · sub_category late · delay 2 s`; empty when it has none. */
export function fieldsLine(fields: PageAnswerFields | undefined): string {
  if (!fields) return '';
  const parts: string[] = [];
  for (const key of ['theme', 'context', 'sub_category', 'snippet', 'tags', 'answer_language'] as const) {
    const value = fields[key];
    if (value !== undefined) parts.push(`${key} ${value}`);
  }
  if (fields.delay >= 0) parts.push(`delay ${fields.delay} s`);
  return parts.join(' · ');
}

/** The columns of the ranked answers, in order; a new one is one line here. */
export const COLUMNS: readonly Column[] = [
  ['rank', (_a, _s, k) => el('td', k + 1, 'num')],
  ['score', (_a, score, _k, view, i) => el('td', scoreText(score, view.scored(i)), 'num')],
  ['seq', (a) => el('td', a[A.seq], 'num')],
  ['label', (a) => el('td', a[A.label])],
  ['category', (a) => el('td', a[A.category])],
  ['flags', (a, _s, _k, view) => {
    const td = el('td');
    for (const f of view.flagsOf(a)) td.append(el('span', f, `flag f-${f}`));
    return td;
  }],
  ['answer', (a) => {
    const td = el('td', a[A.text], 'answer');
    const fields = fieldsLine(a[A.fields]);
    if (fields !== '') td.append(el('div', fields, 'fields'));
    return td;
  }],
];

/** The facts of row i: FACTS, then the dataset's own columns (notes, owner...) after those answer-eval reads. */
export function factsOf(view: PageView, i: number): [string, string][] {
  const r = view.rows[i]!;
  const items: [string, string][] = [];
  for (const [name, value] of FACTS) {
    const v = value(r, view, i);
    if (v !== null && v !== undefined) items.push([name, v]);
  }
  for (const [k, v] of r[R.meta] ?? []) items.push([k, v]);
  return items;
}

/** The ranked answers by score (the service's order on ties), the top-1 and the first match marked. */
function rankedTable(view: PageView, i: number, ranked: [PageAnswer, number, number][]): HTMLTableElement {
  const rank = view.rows[i]![R.rank];
  const table = el('table', null, 'ranked');
  const head = el('tr');
  for (const [name] of COLUMNS) head.append(el('th', name));
  table.append(el('thead'), el('tbody'));
  table.tHead!.append(head);
  ranked.forEach(([a, score], k) => {
    const row = el('tr', null, k === 0 ? 'top1' : '');
    if (rank === k + 1) row.classList.add('match');
    for (const [, cell] of COLUMNS) row.append(cell(a, score, k, view, i));
    table.tBodies[0]!.append(row);
  });
  return table;
}

/** The row under question i when it is open: its facts, then its ranked answers. */
export function detailRow(view: PageView, i: number, columns: number): HTMLTableRowElement {
  const r = view.rows[i]!;
  const tr = el('tr', null, 'detail');
  const td = el('td');
  td.colSpan = columns;
  const facts = el('div', null, 'facts');
  for (const [k, v] of factsOf(view, i)) facts.append(fact(k, v));
  td.append(facts);
  const ranked = view.answersOf(i).sort((a, b) => b[1] - a[1] || a[2] - b[2]);
  if (ranked.length === 0) {
    td.append(el('p', r[R.error] === null ? 'The service returned an empty answer list.' : 'No answer: the request failed.', 'hint'));
  } else {
    if (ranked.some((p, k) => p[2] !== k)) td.append(el('p', 'The service did not send this list in descending score order; shown by score.', 'hint'));
    const rank = r[R.rank];
    const seen = rank !== null && rank > 1 ? ranked[rank - 1] : undefined;
    if (seen) {
      const p = el('p', null, 'seen');
      p.append(el('span', `The expected answer, seen at rank ${rank}: `, 'k'), el('span', seen[0][A.text], 'v'));
      td.append(p);
    }
    const wrap = el('div', null, 'ranked-wrap');
    wrap.append(rankedTable(view, i, ranked));
    td.append(wrap);
  }
  const body = replyBody(r);
  if (body) td.append(body);
  tr.append(td);
  return tr;
}

/** The reply as it came, for a question asked in xml, html or text that did not pass: shown as text, never as markup. */
function replyBody(r: PageRow): HTMLDetailsElement | undefined {
  const reply = r[R.detail]?.reply;
  if (!reply || (reply.body === undefined && !reply.withheld)) return undefined;
  const box = el('details', null, 'reply-body');
  const note = reply.withheld ? ': withheld (its markup split a secret; the answers above are masked one by one)' : reply.cut ? ', cut after 4,096 characters' : '';
  box.append(el('summary', `The reply as it came (${reply.output})${note}`));
  if (reply.body !== undefined) box.append(el('pre', reply.body));
  return box;
}
