import { byId, onTyped } from '../shared/dom.js';
import { needleOf } from '../shared/search.js';
import { showSort, sortableHeads, type Sort } from '../shared/table.js';

/** Columns (by index) whose first click sorts lowest first: entry, category, and F1, recall and precision (the worst first). */
const FIRST_ASC = new Set(['0', '1', '3', '5', '6']);

/**
 * The entry table: sort by a column head, filter by text and category, open a row on its answer text. It needs no
 * page data (the table is HTML, as rendered with JavaScript off); its links to questions (`.goto`) are the question
 * table's. Without an entry table (no labels in the run), nothing.
 */
export function startEntries(): void {
  const table = document.getElementById('e-table') as HTMLTableElement | null;
  if (!table) return;
  const body = table.tBodies[0]!;
  const search = byId<HTMLInputElement>('e-search');
  const category = byId<HTMLSelectElement>('e-category');
  const status = byId('e-status');
  // each entry row with the detail row after it
  const pairs = Array.from(body.querySelectorAll<HTMLTableRowElement>('tr.entry')).map((row) => [row, row.nextElementSibling as HTMLTableRowElement] as const);
  // what a search looks in: the row (entry, category) and its detail (full answer text, label, sequence number)
  const haystack = new Map(pairs.map(([row, detail]) => [row, `${row.cells[0]!.textContent}\n${row.cells[1]!.textContent}\n${detail.textContent}`.toLowerCase()]));
  const heads = Array.from(table.querySelectorAll<HTMLElement>('th[data-esort]'));
  const sort: Sort = { key: '6', desc: false };

  const valueOf = (row: HTMLTableRowElement, column: number): string | number | null => {
    const cell = row.cells[column]!;
    const v = cell.dataset['v'];
    if (v === undefined) return (column === 0 ? (cell.querySelector('a, b')?.textContent ?? '') : (cell.textContent ?? '')).toLowerCase();
    return v === '' ? null : Number(v);
  };

  function sorted(): void {
    const dir = sort.desc ? -1 : 1;
    const column = Number(sort.key);
    const list = [...pairs].sort(([a], [b]) => {
      const [va, vb] = [valueOf(a, column), valueOf(b, column)];
      if (va === null || vb === null) return va === vb ? 0 : va === null ? 1 : -1; // no value: last either way
      return (va < vb ? -1 : va > vb ? 1 : 0) * dir;
    });
    const frag = document.createDocumentFragment();
    for (const [row, detail] of list) frag.append(row, detail);
    body.append(frag);
    showSort(heads, 'esort', sort);
  }

  function filter(): void {
    const needle = needleOf(search.value);
    let shown = 0;
    for (const [row, detail] of pairs) {
      const match = (needle === '' || haystack.get(row)!.includes(needle)) && (category.value === '' || row.dataset['category'] === category.value);
      row.hidden = !match;
      if (!match) detail.hidden = true;
      else if (row.classList.contains('open')) detail.hidden = false;
      if (match) shown++;
    }
    status.textContent = shown === pairs.length ? `${pairs.length} entries` : `${shown} of ${pairs.length} entries`;
  }

  sortableHeads(heads, 'esort', sort, (key) => !FIRST_ASC.has(key), sorted);
  for (const [row, detail] of pairs) {
    const button = row.querySelector<HTMLButtonElement>('button.toggle')!;
    button.hidden = false;
    const toggle = () => {
      const open = row.classList.toggle('open');
      detail.hidden = !open;
      button.textContent = open ? '▾' : '▸';
      button.setAttribute('aria-expanded', String(open));
    };
    button.addEventListener('click', toggle);
    row.addEventListener('click', (e) => { if (!(e.target as HTMLElement).closest('a, button')) toggle(); });
  }
  onTyped(search, 120, filter);
  category.addEventListener('change', filter);
  byId('e-controls').hidden = false;
  filter();
}
