/// <reference lib="dom" />
import type { PageAnswer, PageData } from './data.js';

/**
 * The page's script. It is serialized with `Function.prototype.toString`, so it must stay self-contained:
 * no imports at run time, no outside helpers. It builds every node with `textContent`, never `innerHTML`.
 */
export function client(): void {
  const PAGE_SIZES = [50, 100, 250];
  const byId = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;
  function el<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string | number | null, cls?: string): HTMLElementTagNameMap[K] {
    const node = document.createElement(tag);
    if (text !== undefined && text !== null) node.textContent = String(text);
    if (cls) node.className = cls;
    return node;
  }
  const status = byId('table-status');

  async function load(): Promise<PageData> {
    const text = (byId('page-data').textContent ?? '').trim();
    const binary = atob(text);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
    return JSON.parse(await new Response(stream).text()) as PageData;
  }

  function start(data: PageData): void {
    const rows = data.rows;
    const state = { outcome: 'failing', category: '', language: '', tag: '', expected: '', got: '', search: '', sort: 'line', desc: false, page: 0, size: 100 };
    const expanded = new Set<number>();
    let view: number[] = [];
    let haystack: string[] | null = null;

    // an answer is an index into data.answers, or the answer itself past the table's cap
    const answerOf = (ref: number | PageAnswer): PageAnswer => (typeof ref === 'number' ? data.answers[ref]! : ref);
    const topOf = (i: number): [PageAnswer, number] | null => {
      const r = rows[i]!;
      const p = r[10];
      return p < 0 ? null : [answerOf(r[9][2 * p]!), r[9][2 * p + 1] as number];
    };
    const outcomeName = (i: number) => data.outcomes[rows[i]![4]]!;
    const outcomeLabel = (i: number) => data.outcomeLabels[rows[i]![4]]!;
    const FAILING = data.attention;
    const sortKeys: Record<string, (i: number) => string | number> = {
      line: (i) => rows[i]![12],
      id: (i) => rows[i]![0],
      question: (i) => rows[i]![1].toLowerCase(),
      language: (i) => data.languages[rows[i]![2]]!,
      outcome: (i) => rows[i]![4],
      score: (i) => topOf(i)?.[1] ?? -1,
      latency: (i) => rows[i]![6] ?? -1,
    };

    // filters
    const counts: Record<string, number> = {};
    for (const r of rows) counts[data.outcomes[r[4]]!] = (counts[data.outcomes[r[4]]!] ?? 0) + 1;
    const outcomeSelect = byId<HTMLSelectElement>('f-outcome');
    const failingCount = FAILING.reduce((n, o) => n + (counts[o] ?? 0), 0);
    const addOption = (select: HTMLSelectElement, value: string, label: string) => {
      const o = el('option', label);
      o.value = value;
      select.append(o);
    };
    addOption(outcomeSelect, 'failing', `failing (${failingCount})`);
    outcomeSelect.title = `failing: ${FAILING.map((o) => data.outcomeLabels[data.outcomes.indexOf(o)]).join(', ')}`;
    addOption(outcomeSelect, '', `all outcomes (${rows.length})`);
    data.outcomes.forEach((o, k) => { if (counts[o]) addOption(outcomeSelect, o, `${data.outcomeLabels[k]} (${counts[o]})`); });
    if (failingCount === 0) state.outcome = '';
    outcomeSelect.value = state.outcome;
    const languageSelect = byId<HTMLSelectElement>('f-language');
    addOption(languageSelect, '', 'all languages');
    for (const l of [...data.languages].sort()) addOption(languageSelect, l, l);
    const tagSelect = byId<HTMLSelectElement>('f-tag');
    addOption(tagSelect, '', 'all tags');
    for (const t of [...data.tags].sort()) addOption(tagSelect, t, t);
    const categorySelect = byId<HTMLSelectElement>('f-category');
    addOption(categorySelect, '', 'all categories');
    for (const c of [...data.categories].sort()) addOption(categorySelect, c, c);
    const entryChip = byId('f-entry');
    const sizeSelect = byId<HTMLSelectElement>('f-size');
    for (const s of PAGE_SIZES) addOption(sizeSelect, String(s), `${s} per page`);
    sizeSelect.value = String(state.size);
    const searchInput = byId<HTMLInputElement>('f-search');

    function hay(i: number): string {
      if (!haystack) {
        haystack = rows.map((r, k) => {
          const top = topOf(k);
          const a = top ? top[0] : null;
          const meta = (r[18] ?? []).map(([k, v]) => `${k}: ${v}`).join('\n');
          return `${r[0]}\n${r[1]}\n${r[5]}\n${a ? `${a[0]}\n${a[2]}\n${a[1]}` : ''}\n${r[8] ?? ''}\n${meta}`.toLowerCase();
        });
      }
      return haystack[i]!;
    }

    function compute(): void {
      // -1: no filter; -2: a value no question has, so none matches
      const indexIn = (list: readonly string[], value: string) => (value === '' ? -1 : list.includes(value) ? list.indexOf(value) : -2);
      const lang = indexIn(data.languages, state.language);
      const tag = indexIn(data.tags, state.tag);
      const category = indexIn(data.categories, state.category);
      const [expected, got] = [indexIn(data.entries, state.expected), indexIn(data.entries, state.got)];
      const needle = state.search.trim().toLowerCase();
      const out: number[] = [];
      for (let i = 0; i < rows.length; i++) {
        const r = rows[i]!;
        const o = data.outcomes[r[4]]!;
        if (state.outcome === 'failing' ? !FAILING.includes(o) : state.outcome !== '' && o !== state.outcome) continue;
        if (lang !== -1 && r[2] !== lang) continue;
        if (tag !== -1 && !r[3].includes(tag)) continue;
        if (category !== -1 && r[14] !== category) continue;
        if (expected !== -1 && r[15] !== expected) continue;
        if (got !== -1 && r[16] !== got) continue;
        if (needle !== '' && !hay(i).includes(needle)) continue;
        out.push(i);
      }
      const key = sortKeys[state.sort]!;
      const dir = state.desc ? -1 : 1;
      out.sort((a, b) => {
        const ka = key(a);
        const kb = key(b);
        return (ka < kb ? -1 : ka > kb ? 1 : rows[a]![12] - rows[b]![12]) * dir;
      });
      view = out;
    }

    const flagsOf = (bits: number): string[] => data.flags.filter((_, k) => bits & (1 << k));

    function detail(i: number): HTMLTableRowElement {
      const r = rows[i]!;
      const tr = el('tr', null, 'detail');
      const td = el('td');
      td.colSpan = 9;
      const meta = el('div', null, 'facts');
      const items: [string, string][] = [
        ['question', r[1]], ['expected', r[5] || '(nothing: unlabeled)'], ['outcome', outcomeLabel(i)],
        ['category', data.categories[r[14]]!], ['language', data.languages[r[2]]!], ['tags', r[3].map((t) => data.tags[t]).join(', ') || '—'],
        ['latency', r[6] === null ? '—' : `${r[6]} ms`], ['attempts', String(r[7])], ['dataset line', String(r[12])],
      ];
      if (r[13] !== null) items.unshift(['why', r[13]]);
      if (r[8] !== null) items.push(['error', r[8]]);
      if (r[11] !== null) items.push(['first matching answer at rank', String(r[11])]);
      if (r[15] >= 0) items.push(['expected entry', data.entries[r[15]]!]);
      if (r[16] >= 0) items.push(['top-1 counts as', data.entries[r[16]]!]);
      const turn = r[17];
      if (turn) items.push(['conversation', `${turn[0]}, turn ${turn[1]} of ${turn[2]} (${data.verdicts[turn[3]]}${turn[4] === null ? '' : ` at turn ${turn[4]}`}) · user ${turn[5]}`]);
      // the dataset's own columns (notes, owner...), after the facts answer-eval reads
      for (const [k, v] of r[18] ?? []) items.push([k, v]);
      for (const [k, v] of items) {
        const p = el('div');
        p.append(el('span', k, 'k'), el('span', v, 'v'));
        meta.append(p);
      }
      td.append(meta);
      const pairs: [PageAnswer, number, number][] = [];
      for (let k = 0; k < r[9].length; k += 2) pairs.push([answerOf(r[9][k]!), r[9][k + 1] as number, k / 2]);
      const ranked = [...pairs].sort((a, b) => b[1] - a[1] || a[2] - b[2]);
      if (ranked.length === 0) td.append(el('p', r[8] === null ? 'The service returned an empty answer list.' : 'No answer: the request failed.', 'hint'));
      else {
        if (ranked.some((p, k) => p[2] !== k)) td.append(el('p', 'The service did not send this list in descending score order; shown by score.', 'hint'));
        const seen = r[11] !== null && r[11] > 1 ? ranked[r[11] - 1] : undefined;
        if (seen) {
          const p = el('p', null, 'seen');
          p.append(el('span', `The expected answer, seen at rank ${r[11]}: `, 'k'), el('span', seen[0][0], 'v'));
          td.append(p);
        }
        const table = el('table', null, 'ranked');
        const head = el('tr');
        for (const c of ['rank', 'score', 'seq', 'label', 'category', 'flags', 'answer']) head.append(el('th', c));
        table.append(el('thead'), el('tbody'));
        table.tHead!.append(head);
        ranked.forEach(([a, score], k) => {
          const ans = a;
          const row = el('tr', null, k === 0 ? 'top1' : '');
          if (r[11] === k + 1) row.classList.add('match');
          const flags = el('td');
          for (const f of flagsOf(ans[4])) flags.append(el('span', f, `flag f-${f}`));
          row.append(el('td', k + 1, 'num'), el('td', score.toFixed(3), 'num'), el('td', ans[1], 'num'), el('td', ans[2]), el('td', ans[3]), flags, el('td', ans[0], 'answer'));
          table.tBodies[0]!.append(row);
        });
        td.append(table);
      }
      tr.append(td);
      return tr;
    }

    function render(): void {
      const body = byId<HTMLTableSectionElement>('q-body');
      const pages = Math.max(1, Math.ceil(view.length / state.size));
      state.page = Math.min(state.page, pages - 1);
      const from = state.page * state.size;
      const slice = view.slice(from, from + state.size);
      const frag = document.createDocumentFragment();
      for (const i of slice) {
        const r = rows[i]!;
        const top = topOf(i);
        const ans = top ? top[0] : null;
        const tr = el('tr', null, expanded.has(i) ? 'row open' : 'row');
        tr.dataset['i'] = String(i);
        tr.tabIndex = 0;
        const outcome = el('td');
        outcome.append(el('span', outcomeLabel(i), `badge o-${outcomeName(i)}`));
        const got = el('td', null, 'got');
        if (ans) {
          got.append(el('span', ans[2] || `#${ans[1]}`, 'label'));
          for (const f of flagsOf(ans[4])) got.append(el('span', f, `flag f-${f}`));
          got.append(el('div', ans[0], 'answer'));
        } else got.append(el('span', r[8] ?? 'no answer', 'hint'));
        tr.append(el('td', r[12], 'num'), el('td', r[0], 'id'), el('td', r[1], 'question'), el('td', data.languages[r[2]]!), outcome,
          el('td', r[5], 'expected'), got, el('td', top ? top[1].toFixed(3) : '—', 'num'), el('td', r[6] === null ? '—' : Math.round(r[6]), 'num'));
        frag.append(tr);
        if (expanded.has(i)) frag.append(detail(i));
      }
      body.replaceChildren(frag);
      status.textContent = view.length === 0 ? 'No question matches these filters.'
        : `${from + 1}–${from + slice.length} of ${view.length} questions${view.length < rows.length ? ` (filtered from ${rows.length})` : ''} · page ${state.page + 1} of ${pages}`;
      const entryText = [state.expected && `expected ${state.expected}`, state.got && `got ${state.got}`].filter(Boolean).join(' · ');
      entryChip.hidden = entryText === '';
      byId('f-entry-text').textContent = entryText;
      byId<HTMLButtonElement>('p-prev').disabled = state.page === 0;
      byId<HTMLButtonElement>('p-next').disabled = state.page >= pages - 1;
      for (const th of Array.from(document.querySelectorAll<HTMLElement>('#q-table th[data-sort]'))) {
        th.setAttribute('aria-sort', th.dataset['sort'] === state.sort ? (state.desc ? 'descending' : 'ascending') : 'none');
      }
    }

    const update = (resetPage = true) => {
      if (resetPage) state.page = 0;
      compute();
      render();
    };
    outcomeSelect.addEventListener('change', () => { state.outcome = outcomeSelect.value; update(); });
    languageSelect.addEventListener('change', () => { state.language = languageSelect.value; update(); });
    tagSelect.addEventListener('change', () => { state.tag = tagSelect.value; update(); });
    categorySelect.addEventListener('change', () => { state.category = categorySelect.value; update(); });
    byId('f-entry-clear').addEventListener('click', () => { state.expected = state.got = ''; update(); });
    sizeSelect.addEventListener('change', () => { state.size = Number(sizeSelect.value); update(); });
    let timer: number | undefined;
    searchInput.addEventListener('input', () => {
      clearTimeout(timer);
      timer = window.setTimeout(() => { state.search = searchInput.value; update(); }, 150);
    });
    byId('p-prev').addEventListener('click', () => { state.page--; render(); });
    byId('p-next').addEventListener('click', () => { state.page++; render(); });
    for (const th of Array.from(document.querySelectorAll<HTMLElement>('#q-table th[data-sort]'))) {
      th.addEventListener('click', () => {
        const key = th.dataset['sort']!;
        state.desc = state.sort === key ? !state.desc : key === 'score' || key === 'latency';
        state.sort = key;
        update(false);
      });
    }
    const toggle = (tr: HTMLElement | null) => {
      if (!tr || !tr.classList.contains('row')) return;
      const i = Number(tr.dataset['i']);
      if (expanded.has(i)) expanded.delete(i);
      else expanded.add(i);
      render();
    };
    byId('q-body').addEventListener('click', (e) => toggle((e.target as HTMLElement).closest('tr')));
    byId('q-body').addEventListener('keydown', (e) => { if (e.key === 'Enter') toggle((e.target as HTMLElement).closest('tr')); });

    // links anywhere on the page (class goto, data-* filters: see QuestionFilter) drive the table
    const selects: [HTMLSelectElement, 'outcome' | 'category' | 'language' | 'tag'][] = [[outcomeSelect, 'outcome'], [categorySelect, 'category'], [languageSelect, 'language'], [tagSelect, 'tag']];
    function go(link: HTMLElement): void {
      const d = link.dataset;
      for (const [select, key] of selects) {
        select.value = d[key] ?? '';
        // a value the select does not offer (an outcome no question has) still filters
        state[key] = d[key] ?? '';
      }
      state.expected = d['expected'] ?? '';
      state.got = d['got'] ?? '';
      searchInput.value = state.search = d['id'] ?? '';
      update();
      const first = view[0];
      if (d['id'] !== undefined && view.length === 1 && first !== undefined) { expanded.add(first); render(); }
      byId('questions').scrollIntoView();
    }
    const linkOf = (e: Event) => (e.target as Element).closest<HTMLElement>('.goto');
    document.addEventListener('click', (e) => {
      const link = linkOf(e);
      if (!link) return;
      e.preventDefault();
      go(link);
    });
    document.addEventListener('keydown', (e) => {
      const link = linkOf(e);
      if (link && e.key === 'Enter' && link.tagName !== 'A') go(link);
    });
    byId('q-controls').hidden = false;
    update();
    // the conversations' threads (threads-client.ts) are built from the same data
    document.dispatchEvent(new CustomEvent('answer-eval:data', { detail: data }));
    (window as unknown as { __firstRenderMs: number }).__firstRenderMs = performance.now();
    document.body.dataset['ready'] = 'true';
  }

  if (typeof DecompressionStream === 'undefined') {
    status.textContent = 'This browser cannot unpack the embedded data (no DecompressionStream); open the report in a current browser.';
    return;
  }
  status.textContent = 'Loading questions…';
  load().then(start, (error: unknown) => { status.textContent = `Could not read the embedded data: ${String(error)}`; });
}
