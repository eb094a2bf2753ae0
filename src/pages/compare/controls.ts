import { addOption, byId, el } from '../shared/dom.js';
import { order } from '../shared/table.js';
import type { PageData } from './data.js';
import { fmt } from './view.js';

/** The sorts offered in the select: a key of query.ts sorts, which way, and its words. */
const SORT_OPTIONS: [string, boolean, string][] = [
  ['size', true, 'largest change first'], ['delta', false, 'score Δ, most negative first'], ['delta', true, 'score Δ, most positive first'],
  ['order', false, 'dataset order'], ['id', false, 'id'], ['category', false, 'category'],
];

/** A tab per class of change, with how many questions it has; a click picks the class. */
export function classTabs(data: PageData, pick: (k: number) => void): HTMLButtonElement[] {
  const tabs = byId('class-tabs');
  return data.classes.map((_, k) => {
    const b = el('button', null, `tone-${data.classTones[k]}`);
    b.type = 'button';
    b.append(document.createTextNode(data.classLabels[k]!), el('span', fmt(data.counts[k]!), 'n'));
    // without a quarantine (or nothing in it that broke) the tab would only say 0
    b.hidden = data.classes[k] === 'quarantined' && data.counts[k] === 0;
    b.addEventListener('click', () => pick(k));
    tabs.append(b);
    return b;
  });
}

/** The selects of the changes table: tag and category (by index, -1 all), sort, filled from the page data. */
export function changeControls(data: PageData): { tag: HTMLSelectElement; category: HTMLSelectElement; sort: HTMLSelectElement } {
  const indexed = (select: HTMLSelectElement, all: string, values: readonly string[]) => {
    addOption(select, '-1', all);
    values.map((v, k) => [v, k] as const).sort((a, b) => order(a[0], b[0])).forEach(([v, k]) => addOption(select, String(k), v));
    return select;
  };
  const sort = byId<HTMLSelectElement>('f-sort');
  for (const [key, desc, label] of SORT_OPTIONS) addOption(sort, `${key}:${desc ? 'desc' : 'asc'}`, `sort: ${label}`);
  return { tag: indexed(byId('f-tag'), 'all tags', data.tags), category: indexed(byId('f-category'), 'all categories', data.categories), sort };
}
