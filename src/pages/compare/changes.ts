import { byId, el, onTyped } from '../shared/dom.js';
import { Pager } from '../shared/pager.js';
import { needleOf, textSearch } from '../shared/search.js';
import { expandableRows, showSort, sortableHeads } from '../shared/table.js';
import { cell, changeCell, detailRow, sideCell } from './cells.js';
import { changeControls, classTabs } from './controls.js';
import { C } from './data.js';
import { driftGroups } from './drift.js';
import { changeText, selectChanges, sorts, type ChangeQuery } from './query.js';
import { fmt, type CompareView } from './view.js';

const PAGE_SIZES = [25, 50, 100, 250];
/** The table's columns (src/compare/render/html/index.ts writes their heads); an open change's detail spans them. */
const COLUMNS = 5;

/** A change's row: id (with category and tags), question, base, head, the change. */
function changeRow(view: CompareView, i: number): HTMLTableRowElement {
  const { data } = view;
  const r = view.rows[i]!;
  const tr = el('tr', null, 'row');
  tr.dataset['i'] = String(i);
  tr.tabIndex = 0;
  const idCell = cell(r[C.id], 'id', 'id');
  const category = data.categories[r[C.category]]!;
  idCell.append(el('div', [category, ...r[C.tags].map((t) => data.tags[t]!).filter((t) => t !== category)].join(' · '), 'sub'));
  tr.append(idCell, cell(r[C.question], 'question', 'question'), sideCell(view, r, 'base'), sideCell(view, r, 'head'), changeCell(r));
  return tr;
}

/**
 * compare.html's table of changes: a tab per class, filters, search, sort, a page at a time, a change opened on a
 * click, the drift panel for score drift. The cards (`data-class`) and the slices (`data-filter`) drive it.
 */
export function startChanges(view: CompareView): void {
  const { data, rows } = view;
  const byClass: number[][] = data.classes.map(() => []);
  rows.forEach((r, i) => byClass[r[C.cls]]!.push(i));
  // classes listed in dataset order; the others largest change first
  const ordered = new Set([view.classOf('added'), view.classOf('removed'), view.classOf('changed')]);
  const q: ChangeQuery = { cls: Math.max(0, data.classes.findIndex((_, k) => data.counts[k]! > 0)), tag: -1, category: -1, group: null, needle: '', sort: { key: 'size', desc: true } };
  const open = new Set<number>();
  const matches = textSearch((i) => changeText(view, i));
  const sortBy = sorts(view);
  const heads = Array.from(document.querySelectorAll<HTMLElement>('#changes th[data-sort]'));
  const controls = changeControls(data);
  const tabs = classTabs(data, (k) => selectClass(k));
  let shown: number[] = [];

  function render(): void {
    const { items, from, pages } = pager.slice(shown);
    const frag = document.createDocumentFragment();
    for (const i of items) {
      frag.append(changeRow(view, i));
      if (open.has(i)) frag.append(detailRow(view, rows[i]!, COLUMNS));
    }
    byId('changes-body').replaceChildren(frag);
    const k = q.cls;
    const label = data.classLabels[k]!;
    const total = byClass[k]!.length;
    const parts = [shown.length === 0 ? `No ${label} question matches these filters.` : `${fmt(from + 1)}–${fmt(from + items.length)} of ${fmt(shown.length)} ${label}`];
    if (shown.length < total) parts.push(`(filtered from ${fmt(total)})`);
    if (shown.length > 0) parts.push(`· page ${pager.page + 1} of ${pages} · sorted by ${sortBy[q.sort.key]!.label}`);
    byId('changes-status').textContent = parts.join(' ');
    const capped = byId('changes-capped');
    capped.hidden = data.shown[k]! >= data.counts[k]!;
    capped.textContent = capped.hidden ? '' : `This page holds the ${fmt(data.shown[k]!)} largest of ${fmt(data.counts[k]!)} ${label} questions; changes.jsonl lists every one.`;
    byId('class-title').textContent = data.classTitles[k]!;
    tabs.forEach((b, j) => b.setAttribute('aria-pressed', String(j === k)));
    controls.sort.value = `${q.sort.key}:${q.sort.desc ? 'desc' : 'asc'}`;
    if (controls.sort.selectedIndex < 0) controls.sort.selectedIndex = 0;
    showSort(heads, 'sort', q.sort);
    byId('f-group').hidden = q.group === null;
    if (q.group) byId('f-group-text').textContent = `${q.group.by}: ${q.group.key}`;
    byId('drift-panel').hidden = data.classes[k] !== 'drift';
    if (data.classes[k] === 'drift') groups();
  }
  const pager = new Pager(50, byId('p-prev'), byId('p-next'), render);
  const update = (firstPage = true) => {
    if (firstPage) pager.page = 0;
    shown = selectChanges(view, byClass[q.cls]!, q, matches);
    render();
  };
  function selectClass(k: number): void {
    q.cls = k;
    q.group = null;
    q.sort.key = ordered.has(k) ? 'order' : 'size';
    q.sort.desc = !ordered.has(k);
    open.clear();
    update();
  }
  const groups = driftGroups(view, (group) => {
    q.group = group;
    q.sort.key = 'size';
    q.sort.desc = true;
    update();
  });
  pager.sizes(byId('f-size'), PAGE_SIZES, update);
  controls.tag.addEventListener('change', () => { q.tag = Number(controls.tag.value); update(); });
  controls.category.addEventListener('change', () => { q.category = Number(controls.category.value); update(); });
  controls.sort.addEventListener('change', () => {
    const [key, dir] = controls.sort.value.split(':');
    q.sort.key = key!;
    q.sort.desc = dir === 'desc';
    update();
  });
  onTyped(byId('f-search'), 150, (text) => { q.needle = needleOf(text); update(); });
  byId('f-group-clear').addEventListener('click', () => { q.group = null; update(); });
  sortableHeads(heads, 'sort', q.sort, (key) => sortBy[key]!.desc, () => update(false));
  expandableRows(byId('changes-body'), open, render);
  linkSlices(view, byClass, q, controls, { selectClass, update });
  byId('changes-controls').hidden = false;
  if (ordered.has(q.cls)) selectClass(q.cls);
  update();
}

/** The cards (`data-class`: a class) and the slice rows (`data-filter`: a tag or category) show their changes. */
function linkSlices(view: CompareView, byClass: number[][], q: ChangeQuery, controls: ReturnType<typeof changeControls>, table: { selectClass: (k: number) => void; update: () => void }): void {
  const { data, rows } = view;
  const show = () => byId('changes').scrollIntoView();
  for (const a of Array.from(document.querySelectorAll<HTMLElement>('[data-class]'))) {
    a.addEventListener('click', (e) => {
      e.preventDefault();
      const k = view.classOf(a.dataset['class'] ?? '');
      if (k >= 0) table.selectClass(k);
      show();
    });
  }
  for (const tr of Array.from(document.querySelectorAll<HTMLElement>('[data-filter]'))) {
    tr.addEventListener('click', () => {
      const value = tr.dataset['value'] ?? '';
      const byTag = tr.dataset['filter'] === 'tag';
      // a slice without a listed question matches none (-2), not all (-1)
      if (byTag) {
        q.tag = data.tags.indexOf(value);
        if (q.tag < 0) q.tag = -2;
        controls.tag.value = String(q.tag);
      } else {
        q.category = data.categories.indexOf(value);
        if (q.category < 0) q.category = -2;
        controls.category.value = String(q.category);
      }
      const broken = view.classOf('broken');
      // a slice's regressions first, when it has any in the page
      if (byClass[broken]!.some((i) => (byTag ? rows[i]![C.tags].includes(q.tag) : rows[i]![C.category] === q.category))) q.cls = broken;
      q.group = null;
      table.update();
      show();
    });
  }
}
