import { addOption } from './dom.js';

/** Which column a list is sorted by, and which way. */
export interface Sort {
  key: string;
  desc: boolean;
}

/** Two sort keys in order: numbers, strings, or pairs of numbers (the first, then the second). */
export function order(a: number | string | [number, number], b: number | string | [number, number]): number {
  if (Array.isArray(a) && Array.isArray(b)) return a[0] - b[0] || a[1] - b[1];
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Column heads that sort: a click (or Enter) on a head carrying `data-<attr>` sorts by its value, which way
 * `firstDesc` says; the same head again turns the order round. `sorted` redraws.
 */
export function sortableHeads(heads: readonly HTMLElement[], attr: string, sort: Sort, firstDesc: (key: string) => boolean, sorted: () => void): void {
  for (const th of heads) {
    th.tabIndex = 0;
    const pick = () => {
      const key = th.dataset[attr]!;
      sort.desc = sort.key === key ? !sort.desc : firstDesc(key);
      sort.key = key;
      sorted();
    };
    th.addEventListener('click', pick);
    th.addEventListener('keydown', (e) => { if (e.key === 'Enter') pick(); });
  }
}

/** Marks the head the list is sorted by (aria-sort), the others `none`. */
export function showSort(heads: readonly HTMLElement[], attr: string, sort: Sort): void {
  for (const th of heads) th.setAttribute('aria-sort', th.dataset[attr] === sort.key ? (sort.desc ? 'descending' : 'ascending') : 'none');
}

/** Rows (`tr.row` with `data-i`) in `body` that open and close on a click or Enter; `open` holds the open ones. */
export function expandableRows(body: HTMLElement, open: Set<number>, show: () => void): void {
  const toggle = (tr: HTMLElement | null) => {
    if (!tr || !tr.classList.contains('row')) return;
    const i = Number(tr.dataset['i']);
    if (open.has(i)) open.delete(i);
    else open.add(i);
    show();
  };
  body.addEventListener('click', (e) => toggle((e.target as HTMLElement).closest('tr')));
  body.addEventListener('keydown', (e) => { if (e.key === 'Enter') toggle((e.target as HTMLElement).closest('tr')); });
}

/** A select of values, after the option that means all of them (value ''). */
export function fillSelect(select: HTMLSelectElement, all: string, options: Iterable<readonly [string, string]>): HTMLSelectElement {
  addOption(select, '', all);
  for (const [value, label] of options) addOption(select, value, label);
  return select;
}
