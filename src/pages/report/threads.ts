import { addOption, byId, onLink, onTyped } from '../shared/dom.js';
import { Pager } from '../shared/pager.js';
import { needleOf, textSearch } from '../shared/search.js';
import { fillSelect } from '../shared/table.js';
import { R } from './data.js';
import { threadNode } from './thread-node.js';
import { selectThreads, threadsOf, threadText, type Thread, type ThreadQuery } from './thread-list.js';
import type { PageView } from './view.js';

const PAGE_SIZES = [10, 25, 50];
type Filter = Exclude<keyof ThreadQuery, 'needle'>;

/** Each filter's select, offering what the threads hold with how many threads. */
function threadControls(view: PageView, threads: readonly Thread[]): [HTMLSelectElement, Filter][] {
  const { data, rows } = view;
  const countBy = (key: (t: Thread) => Iterable<string>): Map<string, number> => {
    const counts = new Map<string, number>();
    for (const t of threads) for (const k of new Set(key(t))) counts.set(k, (counts.get(k) ?? 0) + 1);
    return counts;
  };
  const verdict = byId<HTMLSelectElement>('c-verdict');
  addOption(verdict, '', `all conversations (${threads.length})`);
  addOption(verdict, 'failing', `failing: failed or error (${threads.filter((t) => t.failing).length})`);
  const verdicts = countBy((t) => [t.verdict]);
  for (const v of data.verdicts) if (verdicts.get(v)) addOption(verdict, v, `${v} (${verdicts.get(v)})`);
  const outcome = byId<HTMLSelectElement>('c-outcome');
  addOption(outcome, '', 'a turn of any outcome');
  const outcomes = countBy((t) => t.rows.map(view.outcomeOf));
  data.outcomes.forEach((o, k) => { if (outcomes.get(o)) addOption(outcome, o, `a turn ${data.outcomeLabels[k]} (${outcomes.get(o)})`); });
  const listSelect = (id: string, all: string, key: (t: Thread) => Iterable<string>): HTMLSelectElement => {
    const counts = countBy(key);
    return fillSelect(byId(id), all, [...counts.keys()].sort().map((k) => [k, `${k} (${counts.get(k)})`] as const));
  };
  return [
    [verdict, 'verdict'], [outcome, 'outcome'],
    [listSelect('c-category', 'all categories', (t) => t.rows.map((i) => data.categories[rows[i]![R.category]]!)), 'category'],
    [listSelect('c-language', 'all languages', (t) => t.rows.map((i) => data.languages[rows[i]![R.language]]!)), 'language'],
    [listSelect('c-tag', 'all tags', (t) => t.rows.flatMap((i) => rows[i]![R.tags].map((k) => data.tags[k]!))), 'tag'],
  ];
}

/**
 * The conversations: every one as a thread of its turns, failing ones first, filtered by verdict, a turn's outcome,
 * category, language, tag and text, a page of threads at a time. Without conversations (no #c-threads), nothing.
 */
export function startThreads(view: PageView): void {
  const container = document.getElementById('c-threads');
  if (!container) return;
  const threads = threadsOf(view);
  const q: ThreadQuery = { verdict: '', outcome: '', category: '', language: '', tag: '', needle: '' };
  // threads the reader opened or closed, by index: others open when failing
  const toggled = new Map<number, boolean>();
  const matches = textSearch((k) => threadText(view, threads[k]!));
  const search = byId<HTMLInputElement>('c-search');
  let shown: number[] = [];

  function render(): void {
    const { items, from, pages } = pager.slice(shown);
    const frag = document.createDocumentFragment();
    for (const k of items) {
      const d = threadNode(view, threads[k]!, toggled.get(k) ?? threads[k]!.failing);
      d.dataset['k'] = String(k);
      d.addEventListener('toggle', () => toggled.set(k, d.open));
      frag.append(d);
    }
    container!.replaceChildren(frag);
    byId('c-status').textContent = shown.length === 0 ? 'No conversation matches these filters.'
      : `${from + 1}–${from + items.length} of ${shown.length} conversations${shown.length < threads.length ? ` (filtered from ${threads.length})` : ''}, failing first · page ${pager.page + 1} of ${pages}`;
  }
  const pager = new Pager(PAGE_SIZES[0]!, byId('c-prev'), byId('c-next'), render);
  const update = () => {
    pager.page = 0;
    shown = selectThreads(view, threads, q, matches);
    render();
  };
  pager.sizes(byId('c-size'), PAGE_SIZES, update);
  const selects = threadControls(view, threads);
  for (const [select, key] of selects) select.addEventListener('change', () => { q[key] = select.value; update(); });
  onTyped(search, 150, (text) => { q.needle = needleOf(text); update(); });
  // links elsewhere on the page (class to-threads, data-verdict) show the conversations of a verdict
  onLink('.to-threads', (link) => {
    for (const [select, key] of selects) select.value = q[key] = key === 'verdict' ? (link.dataset['verdict'] ?? '') : '';
    search.value = '';
    q.needle = '';
    update();
    byId('conversations').scrollIntoView();
  });
  byId('c-controls').hidden = false;
  update();
}
