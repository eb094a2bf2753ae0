import { byId, el } from '../shared/dom.js';
import { Pager } from '../shared/pager.js';
import type { PageGroup } from './data.js';
import { fmt, num, signed, type CompareView } from './view.js';

const GROUPS_PER_PAGE = 12;
export type GroupBy = 'entry' | 'category';

/** A group's spread of score changes as a bar on the scale of every group: p10–p90 box, median, zero. */
function rangeBar(g: PageGroup, x: (v: number) => string): HTMLDivElement {
  const bar = el('div', null, 'range');
  const box = el('span', null, 'box');
  box.style.left = x(g[6]);
  box.style.width = `calc(${x(g[8])} - ${x(g[6])} + 2px)`;
  const med = el('span', null, 'med');
  med.style.left = x(g[7]);
  const zero = el('span', null, 'zero');
  zero.style.left = x(0);
  bar.append(zero, box, med);
  bar.title = `min ${num(g[5])} · p10 ${num(g[6])} · median ${num(g[7])} · p90 ${num(g[8])} · max ${num(g[9])}`;
  return bar;
}

/**
 * The drift panel's table: score drift grouped by top-1 entry or category, most drifting questions first, a page
 * of groups at a time; a click on a group calls `pick` with it. Returns the function that draws it.
 */
export function driftGroups(view: CompareView, pick: (group: { by: GroupBy; key: string }) => void): () => void {
  let by: GroupBy = 'entry';
  function render(): void {
    const groups = by === 'entry' ? view.data.drift.byEntry : view.data.drift.byCategory;
    const { items, from } = pager.slice(groups);
    let lo = 0;
    let hi = 0;
    for (const g of groups) {
      lo = Math.min(lo, g[5]);
      hi = Math.max(hi, g[9]);
    }
    const x = (v: number) => `${(((v - lo) / (hi - lo || 1)) * 100).toFixed(2)}%`;
    const frag = document.createDocumentFragment();
    for (const g of items) {
      const tr = el('tr', null, 'filterable');
      tr.title = 'show these questions';
      const dist = el('td');
      dist.append(rangeBar(g, x), el('div', `${signed(g[5])} … ${signed(g[7])} … ${signed(g[9])}`, 'sub'));
      const name = el('td', g[0]);
      if (g[10]) name.append(el('div', g[10], 'sub clamp'));
      tr.append(name, el('td', fmt(g[1]), 'num'), el('td', `${fmt(g[2])} / ${fmt(g[3])}`, 'num'), el('td', signed(g[4]), `num ${g[4] > 0 ? 'delta-up' : g[4] < 0 ? 'delta-down' : ''}`), dist);
      tr.addEventListener('click', () => pick({ by, key: g[0] }));
      frag.append(tr);
    }
    byId('groups-body').replaceChildren(frag);
    byId('groups-status').textContent = groups.length === 0 ? '' : `${fmt(from + 1)}–${fmt(Math.min(groups.length, from + GROUPS_PER_PAGE))} of ${fmt(groups.length)} ${by === 'entry' ? 'entries' : 'categories'}, most drifting questions first`;
  }
  const pager = new Pager(GROUPS_PER_PAGE, byId('g-prev'), byId('g-next'), render);
  const select = byId<HTMLSelectElement>('g-by');
  select.addEventListener('change', () => {
    by = select.value === 'category' ? 'category' : 'entry';
    pager.page = 0;
    render();
  });
  return render;
}
