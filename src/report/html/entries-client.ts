/// <reference lib="dom" />

/**
 * The entry table's script: sort by a column head, filter by text and category, open a row on its answer text.
 * Serialized with `Function.prototype.toString`, so it is self-contained; it needs no page data (the table is HTML,
 * shown as rendered with JavaScript off). Links to questions (`.goto`) are the question table's script's.
 */
export function entriesClient(): void {
  const table = document.getElementById('e-table') as HTMLTableElement | null;
  if (!table) return;
  const body = table.tBodies[0]!;
  const search = document.getElementById('e-search') as HTMLInputElement;
  const category = document.getElementById('e-category') as HTMLSelectElement;
  const status = document.getElementById('e-status')!;
  // each entry row with the detail row after it
  const pairs = Array.from(body.querySelectorAll<HTMLTableRowElement>('tr.entry')).map((row) => [row, row.nextElementSibling as HTMLTableRowElement] as const);
  // what a search looks in: the row (entry, category) and its detail (full answer text, label, sequence number)
  const haystack = new Map(pairs.map(([row, detail]) => [row, `${row.cells[0]!.textContent}\n${row.cells[1]!.textContent}\n${detail.textContent}`.toLowerCase()]));
  const heads = Array.from(table.querySelectorAll<HTMLElement>('th[data-esort]'));
  const state = { column: 6, desc: false };

  const valueOf = (row: HTMLTableRowElement, column: number): string | number | null => {
    const cell = row.cells[column]!;
    const v = cell.dataset['v'];
    if (v === undefined) return (column === 0 ? (cell.querySelector('a, b')?.textContent ?? '') : (cell.textContent ?? '')).toLowerCase();
    return v === '' ? null : Number(v);
  };

  function sort(): void {
    const dir = state.desc ? -1 : 1;
    const sorted = [...pairs].sort(([a], [b]) => {
      const [va, vb] = [valueOf(a, state.column), valueOf(b, state.column)];
      if (va === null || vb === null) return va === vb ? 0 : va === null ? 1 : -1; // no value: last either way
      return (va < vb ? -1 : va > vb ? 1 : 0) * dir;
    });
    const frag = document.createDocumentFragment();
    for (const [row, detail] of sorted) frag.append(row, detail);
    body.append(frag);
    for (const th of heads) th.setAttribute('aria-sort', Number(th.dataset['esort']) === state.column ? (state.desc ? 'descending' : 'ascending') : 'none');
  }

  function filter(): void {
    const needle = search.value.trim().toLowerCase();
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

  for (const th of heads) {
    th.tabIndex = 0;
    const pick = () => {
      const column = Number(th.dataset['esort']);
      // numbers open highest first, except F1, recall and precision: the worst first
      state.desc = state.column === column ? !state.desc : ![0, 1, 3, 5, 6].includes(column);
      state.column = column;
      sort();
    };
    th.addEventListener('click', pick);
    th.addEventListener('keydown', (e) => { if (e.key === 'Enter') pick(); });
  }
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
  let timer: number | undefined;
  search.addEventListener('input', () => {
    clearTimeout(timer);
    timer = window.setTimeout(filter, 120);
  });
  category.addEventListener('change', filter);
  document.getElementById('e-controls')!.hidden = false;
  filter();
}
