import { needleOf } from '../shared/search.js';

/**
 * A text filter over each question table: an `input.filter` names its table (`data-table`) and, as the reader
 * types, hides the rows whose text lacks it. The inputs are hidden until this runs (the tables show without it).
 */
export function startTableFilters(): void {
  for (const input of Array.from(document.querySelectorAll<HTMLInputElement>('input.filter'))) {
    const table = document.getElementById(input.dataset['table'] ?? '') as HTMLTableElement | null;
    if (!table) continue;
    input.hidden = false;
    input.addEventListener('input', () => {
      const needle = needleOf(input.value);
      for (const row of Array.from(table.tBodies[0]?.rows ?? [])) row.hidden = needle !== '' && !(row.textContent ?? '').toLowerCase().includes(needle);
    });
  }
}
