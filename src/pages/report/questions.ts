import { scoreText } from '../shared/data.js';
import { byId, el, onLink, onTyped } from '../shared/dom.js';
import { Pager } from '../shared/pager.js';
import { needleOf, textSearch } from '../shared/search.js';
import { expandableRows, showSort, sortableHeads } from '../shared/table.js';
import { questionControls } from './controls.js';
import { A, R, type QuestionFilter } from './data.js';
import { detailRow } from './detail.js';
import { FIRST_DESC, questionText, selectQuestions, type QuestionQuery } from './query.js';
import { entryName, type PageView } from './view.js';

const PAGE_SIZES = [50, 100, 250];
/** The table's columns (src/report/html/sections.ts writes their heads); an open question's detail spans them. */
const COLUMNS = 9;

/** A cell with its column's class; `label` names it where a narrow screen shows the row as a card (`data-label`). */
function cell(text: string | number | null, cls: string, label?: string): HTMLTableCellElement {
  const td = el('td', text, cls);
  if (label) td.dataset['label'] = label;
  return td;
}

/** A question's row in the table: line, id, question, language, outcome, expected, top-1, score, latency. */
function questionRow(view: PageView, i: number, open: boolean): HTMLTableRowElement {
  const r = view.rows[i]!;
  const top = view.topOf(i);
  const ans = top ? top[0] : null;
  const tr = el('tr', null, open ? 'row open' : 'row');
  tr.dataset['i'] = String(i);
  tr.tabIndex = 0;
  const outcome = cell(null, 'outcome');
  outcome.append(el('span', view.outcomeLabelOf(i), `badge o-${view.outcomeOf(i)}`));
  const got = cell(null, 'got', 'top-1');
  if (ans) {
    got.append(el('span', entryName(ans), 'label'));
    for (const f of view.flagsOf(ans)) got.append(el('span', f, `flag f-${f}`));
    got.append(el('div', ans[A.text], 'answer'));
  } else got.append(el('span', r[R.error] ?? 'no answer', 'hint'));
  const latency = r[R.latency];
  tr.append(cell(r[R.line], 'num line', 'line'), cell(r[R.id], 'id'), cell(r[R.question], 'question'), cell(view.data.languages[r[R.language]]!, 'lang'), outcome,
    cell(r[R.expected], 'expected', 'expected'), got, cell(top ? scoreText(top[1], view.scored(i)) : '—', 'num score', 'score'), cell(latency === null ? '—' : Math.round(latency), 'num latency'));
  return tr;
}

/**
 * The question table: filters, search, sort, a page at a time, a question opened on a click; it opens on the
 * failing questions. Links anywhere on the page (class `goto`, QuestionFilter as data-*) drive it.
 */
export function startQuestions(view: PageView): void {
  const rows = view.rows;
  const { controls, failing } = questionControls(view);
  const q: QuestionQuery = { outcome: failing === 0 ? '' : 'failing', category: '', language: '', tag: '', expected: '', got: '', needle: '', sort: { key: 'line', desc: false } };
  controls.outcome.value = q.outcome;
  const open = new Set<number>();
  const matches = textSearch((i) => questionText(view, i));
  const heads = Array.from(document.querySelectorAll<HTMLElement>('#q-table th[data-sort]'));
  const status = byId('table-status');
  let shown: number[] = [];

  function render(): void {
    const { items, from, pages } = pager.slice(shown);
    const frag = document.createDocumentFragment();
    for (const i of items) {
      frag.append(questionRow(view, i, open.has(i)));
      if (open.has(i)) frag.append(detailRow(view, i, COLUMNS));
    }
    byId('q-body').replaceChildren(frag);
    status.textContent = shown.length === 0 ? 'No question matches these filters.'
      : `${from + 1}–${from + items.length} of ${shown.length} questions${shown.length < rows.length ? ` (filtered from ${rows.length})` : ''} · page ${pager.page + 1} of ${pages}`;
    const entryText = [q.expected && `expected ${q.expected}`, q.got && `got ${q.got}`].filter(Boolean).join(' · ');
    byId('f-entry').hidden = entryText === '';
    byId('f-entry-text').textContent = entryText;
    showSort(heads, 'sort', q.sort);
  }
  const pager = new Pager(100, byId('p-prev'), byId('p-next'), render);
  const update = (firstPage = true) => {
    if (firstPage) pager.page = 0;
    shown = selectQuestions(view, q, matches);
    render();
  };
  pager.sizes(byId('f-size'), PAGE_SIZES, update);
  const selects: [HTMLSelectElement, 'outcome' | 'category' | 'language' | 'tag'][] = [[controls.outcome, 'outcome'], [controls.category, 'category'], [controls.language, 'language'], [controls.tag, 'tag']];
  for (const [select, key] of selects) select.addEventListener('change', () => { q[key] = select.value; update(); });
  byId('f-entry-clear').addEventListener('click', () => { q.expected = q.got = ''; update(); });
  onTyped(controls.search, 150, (text) => { q.needle = needleOf(text); update(); });
  sortableHeads(heads, 'sort', q.sort, (key) => FIRST_DESC.has(key), () => update(false));
  expandableRows(byId('q-body'), open, render);
  // links anywhere on the page: their filters set, every other cleared (the outcome: all unless given)
  onLink('.goto', (link) => {
    const f = link.dataset as QuestionFilter;
    for (const [select, key] of selects) {
      select.value = f[key] ?? '';
      // a value the select does not offer (an outcome no question has) still filters
      q[key] = f[key] ?? '';
    }
    q.expected = f.expected ?? '';
    q.got = f.got ?? '';
    controls.search.value = f.id ?? '';
    q.needle = needleOf(f.id ?? '');
    update();
    const first = shown[0];
    if (f.id !== undefined && shown.length === 1 && first !== undefined) { open.add(first); render(); }
    byId('questions').scrollIntoView();
  }, { enter: true });
  byId('q-controls').hidden = false;
  update();
}
