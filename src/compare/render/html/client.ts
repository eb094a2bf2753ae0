/// <reference lib="dom" />
import type { PageAnswer, PageData, PageGroup, PageRow } from './data.js';

/**
 * compare.html's script. It is serialized with `Function.prototype.toString`, so it must stay self-contained:
 * no imports at run time, no outside helpers. It builds every node with `textContent`, never `innerHTML`.
 */
export function client(): void {
  const PAGE_SIZES = [25, 50, 100, 250];
  const GROUPS_PER_PAGE = 12;
  const byId = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;
  function el<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string | number | null, cls?: string): HTMLElementTagNameMap[K] {
    const node = document.createElement(tag);
    if (text !== undefined && text !== null) node.textContent = String(text);
    if (cls) node.className = cls;
    return node;
  }
  const status = byId('changes-status');
  const fmt = (n: number) => n.toLocaleString('en');
  // scores to 3 decimals: a difference of two scores carries float noise (3.5e-15 is 0)
  const num = (v: number) => String(Math.round(v * 1000) / 1000 || 0);
  const signed = (v: number) => {
    const r = Number(num(v));
    return `${r > 0 ? '+' : r < 0 ? '−' : '±'}${num(Math.abs(r))}`;
  };

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
    const cls = (key: string) => data.classes.indexOf(key as PageData['classes'][number]);
    const byClass: number[][] = data.classes.map(() => []);
    rows.forEach((r, i) => byClass[r[0]]!.push(i));
    const ordered = new Set([cls('added'), cls('removed'), cls('changed')]);
    const firstNonEmpty = data.classes.findIndex((_, k) => data.counts[k]! > 0);
    const state = {
      cls: Math.max(0, firstNonEmpty),
      search: '',
      tag: -1,
      category: -1,
      group: null as null | { by: 'entry' | 'category'; key: string },
      sort: 'size',
      desc: true,
      page: 0,
      size: 50,
      groupBy: 'entry' as 'entry' | 'category',
      groupPage: 0,
    };
    const expanded = new Set<number>();
    let view: number[] = [];
    const haystack: (string | undefined)[] = [];

    const answerOf = (ref: number | PageAnswer | null): PageAnswer | null => (ref === null ? null : typeof ref === 'number' ? data.answers[ref]! : ref);
    const entryKey = (a: PageAnswer | null) => (a === null ? '' : a[2] || `#${a[1]}`);
    const rr = (rank: number | null) => (rank !== null && rank > 0 ? 1 / rank : 0);
    // the server chose which rows to keep by the same measure (data.ts, sizeOf)
    const drift = cls('drift');
    const sizeOf = (r: PageRow): [number, number] => {
      const rank = Math.abs(rr(r[12]) - rr(r[11]));
      const moved = Math.abs((r[10] ?? 0) - (r[8] ?? 0));
      return r[0] === drift ? [moved, rank] : [rank, moved];
    };
    const deltaOf = (r: PageRow) => (r[8] !== null && r[10] !== null ? r[10] - r[8] : null);

    const sorts: Record<string, { label: string; desc: boolean; key: (i: number) => number | string | [number, number] }> = {
      size: { label: 'largest change first', desc: true, key: (i) => sizeOf(rows[i]!) },
      delta: { label: 'score Δ', desc: false, key: (i) => deltaOf(rows[i]!) ?? 0 },
      order: { label: 'dataset order', desc: false, key: (i) => i },
      id: { label: 'id', desc: false, key: (i) => rows[i]![1] },
      question: { label: 'question', desc: false, key: (i) => rows[i]![2].toLowerCase() },
      category: { label: 'category', desc: false, key: (i) => data.categories[rows[i]![4]]! },
    };
    const compare = (a: number | string | [number, number], b: number | string | [number, number]): number => {
      if (Array.isArray(a) && Array.isArray(b)) return a[0] - b[0] || a[1] - b[1];
      return a < b ? -1 : a > b ? 1 : 0;
    };

    function hay(i: number): string {
      let h = haystack[i];
      if (h === undefined) {
        const r = rows[i]!;
        const parts = [r[1], r[2], data.categories[r[4]], ...r[3].map((t) => data.tags[t])];
        for (const a of [answerOf(r[7]), answerOf(r[9])]) if (a) parts.push(a[0], a[2], `#${a[1]}`);
        if (r[13]) parts.push(r[13]);
        if (r[14]) parts.push(...r[14]);
        h = haystack[i] = parts.join('\n').toLowerCase();
      }
      return h;
    }

    function compute(): void {
      const needle = state.search.trim().toLowerCase();
      const out: number[] = [];
      for (const i of byClass[state.cls]!) {
        const r = rows[i]!;
        if (state.tag !== -1 && !r[3].includes(state.tag)) continue;
        if (state.category !== -1 && r[4] !== state.category) continue;
        if (state.group) {
          const key = state.group.by === 'entry' ? entryKey(answerOf(r[9])) : data.categories[r[4]];
          if (key !== state.group.key) continue;
        }
        if (needle !== '' && !hay(i).includes(needle)) continue;
        out.push(i);
      }
      const key = sorts[state.sort]!.key;
      const dir = state.desc ? -1 : 1;
      out.sort((a, b) => compare(key(a), key(b)) * dir || a - b);
      view = out;
    }

    // controls
    const tabs = byId('class-tabs');
    const tabButtons = data.classes.map((_, k) => {
      const b = el('button', null, `tone-${data.classTones[k]}`);
      b.type = 'button';
      b.append(document.createTextNode(data.classLabels[k]!), el('span', fmt(data.counts[k]!), 'n'));
      // without a quarantine (or nothing in it that broke) the tab would only say 0
      b.hidden = data.classes[k] === 'quarantined' && data.counts[k] === 0;
      b.addEventListener('click', () => selectClass(k));
      tabs.append(b);
      return b;
    });
    const addOption = (select: HTMLSelectElement, value: string, label: string) => {
      const o = el('option', label);
      o.value = value;
      select.append(o);
    };
    const tagSelect = byId<HTMLSelectElement>('f-tag');
    addOption(tagSelect, '-1', 'all tags');
    data.tags.map((t, k) => [t, k] as const).sort((a, b) => compare(a[0], b[0])).forEach(([t, k]) => addOption(tagSelect, String(k), t));
    const categorySelect = byId<HTMLSelectElement>('f-category');
    addOption(categorySelect, '-1', 'all categories');
    data.categories.map((c, k) => [c, k] as const).sort((a, b) => compare(a[0], b[0])).forEach(([c, k]) => addOption(categorySelect, String(k), c));
    const sortSelect = byId<HTMLSelectElement>('f-sort');
    const sortOptions: [string, boolean, string][] = [
      ['size', true, 'largest change first'], ['delta', false, 'score Δ, most negative first'], ['delta', true, 'score Δ, most positive first'],
      ['order', false, 'dataset order'], ['id', false, 'id'], ['category', false, 'category'],
    ];
    sortOptions.forEach(([key, desc, label]) => addOption(sortSelect, `${key}:${desc ? 'desc' : 'asc'}`, `sort: ${label}`));
    const sizeSelect = byId<HTMLSelectElement>('f-size');
    for (const s of PAGE_SIZES) addOption(sizeSelect, String(s), `${s} per page`);
    sizeSelect.value = String(state.size);
    const searchInput = byId<HTMLInputElement>('f-search');
    const chip = byId('f-group');

    function selectClass(k: number): void {
      state.cls = k;
      state.group = null;
      state.sort = ordered.has(k) ? 'order' : 'size';
      state.desc = !ordered.has(k);
      expanded.clear();
      update();
    }

    const cell = (text: string | number | null, cls: string, label: string) => {
      const td = el('td', text, cls);
      td.dataset['label'] = label;
      return td;
    };

    function side(r: PageRow, which: 'base' | 'head'): HTMLTableCellElement {
      const td = cell(null, 'side', which);
      const o = which === 'base' ? r[5] : r[6];
      const a = answerOf(which === 'base' ? r[7] : r[9]);
      const score = which === 'base' ? r[8] : r[10];
      const rank = which === 'base' ? r[11] : r[12];
      if (o < 0) {
        td.append(el('span', which === 'base' ? 'not in base' : 'not in head', 'hint'));
        return td;
      }
      td.append(el('span', data.outcomeLabels[o], `badge o-${data.outcomes[o]}`), document.createTextNode(' '));
      if (r[14]) {
        const [baseQuestion, baseExpected, headExpected] = r[14];
        td.append(el('div', which === 'base' ? `was: ${baseQuestion === r[2] ? '(same question)' : baseQuestion}` : `now: ${r[2]}`, 'sub'));
        td.append(el('div', `expected: ${which === 'base' ? baseExpected : headExpected}`, 'sub'));
        return td;
      }
      if (a) {
        td.append(el('span', a[2] || `#${a[1]}`, 'label'));
        td.append(el('span', `${score === null ? '' : num(score)}${rank !== null ? ` · rank ${rank}` : ''}`, 'hint'));
        td.append(el('div', a[0], 'answer'));
      } else if (data.outcomes[o] !== 'error') td.append(el('span', 'no answer', 'hint'));
      return td;
    }

    function change(r: PageRow): HTMLTableCellElement {
      const td = cell(null, 'num', 'change');
      // how far the expected answer moved, then the top-1 score (the measure the rows are sorted by)
      if (r[11] !== r[12] && r[5] >= 0 && r[6] >= 0) td.append(el('div', `rank ${r[11] ?? 'none'} → ${r[12] ?? 'none'}`));
      const d = deltaOf(r);
      if (d !== null) td.append(el('div', `score ${signed(d)}`, d > 0 ? 'delta-up' : d < 0 ? 'delta-down' : ''));
      if (r[13]) td.append(el('div', r[13], 'sub'));
      return td;
    }

    function detail(r: PageRow): HTMLTableRowElement {
      const tr = el('tr', null, 'detail');
      const td = el('td');
      td.colSpan = 5;
      const meta = el('div');
      const items: [string, string][] = [['question', r[2]], ['category', data.categories[r[4]]!], ['tags', r[3].map((t) => data.tags[t]).join(', ') || '—']];
      if (r[13]) items.push(['note', r[13]]);
      for (const [k, v] of items) {
        const p = el('div');
        p.append(el('span', k, 'k'), el('span', v, 'v'));
        meta.append(p);
      }
      const pair = el('div', null, 'pair');
      for (const which of ['base', 'head'] as const) {
        const box = el('div');
        const a = answerOf(which === 'base' ? r[7] : r[9]);
        const o = which === 'base' ? r[5] : r[6];
        box.append(el('div', `${which} · ${o < 0 ? 'absent' : data.outcomeLabels[o]}`, 'k'));
        if (a) {
          box.append(el('div', `${a[2] || '(no label)'} · #${a[1]}${a[3] ? ` · ${a[3]}` : ''} · score ${num((which === 'base' ? r[8] : r[10]) ?? 0)}`, 'hint'));
          box.append(el('div', a[0], 'v'));
        }
        const rank = which === 'base' ? r[11] : r[12];
        if (rank !== null) box.append(el('div', `expected answer at rank ${rank}`, 'hint'));
        pair.append(box);
      }
      td.append(meta, pair);
      tr.append(td);
      return tr;
    }

    function render(): void {
      const body = byId<HTMLTableSectionElement>('changes-body');
      const pages = Math.max(1, Math.ceil(view.length / state.size));
      state.page = Math.min(state.page, pages - 1);
      const from = state.page * state.size;
      const slice = view.slice(from, from + state.size);
      const frag = document.createDocumentFragment();
      for (const i of slice) {
        const r = rows[i]!;
        const tr = el('tr', null, 'row');
        tr.dataset['i'] = String(i);
        tr.tabIndex = 0;
        const idCell = cell(r[1], 'id', 'id');
        const category = data.categories[r[4]]!;
        idCell.append(el('div', [category, ...r[3].map((t) => data.tags[t]!).filter((t) => t !== category)].join(' · '), 'sub'));
        tr.append(idCell, cell(r[2], 'question', 'question'), side(r, 'base'), side(r, 'head'), change(r));
        frag.append(tr);
        if (expanded.has(i)) frag.append(detail(r));
      }
      body.replaceChildren(frag);
      const k = state.cls;
      const label = data.classLabels[k]!;
      const total = byClass[k]!.length;
      const parts = [view.length === 0 ? `No ${label} question matches these filters.` : `${fmt(from + 1)}–${fmt(from + slice.length)} of ${fmt(view.length)} ${label}`];
      if (view.length < total) parts.push(`(filtered from ${fmt(total)})`);
      if (view.length > 0) parts.push(`· page ${state.page + 1} of ${pages} · sorted by ${sorts[state.sort]!.label}`);
      status.textContent = parts.join(' ');
      const capped = byId('changes-capped');
      capped.hidden = data.shown[k]! >= data.counts[k]!;
      capped.textContent = capped.hidden ? '' : `This page holds the ${fmt(data.shown[k]!)} largest of ${fmt(data.counts[k]!)} ${label} questions; changes.jsonl lists every one.`;
      byId('class-title').textContent = data.classTitles[k]!;
      tabButtons.forEach((b, j) => b.setAttribute('aria-pressed', String(j === k)));
      byId<HTMLButtonElement>('p-prev').disabled = state.page === 0;
      byId<HTMLButtonElement>('p-next').disabled = state.page >= pages - 1;
      sortSelect.value = `${state.sort}:${state.desc ? 'desc' : 'asc'}`;
      if (sortSelect.selectedIndex < 0) sortSelect.selectedIndex = 0;
      for (const th of Array.from(document.querySelectorAll<HTMLElement>('#changes th[data-sort]'))) {
        th.setAttribute('aria-sort', th.dataset['sort'] === state.sort ? (state.desc ? 'descending' : 'ascending') : 'none');
      }
      chip.hidden = state.group === null;
      if (state.group) byId('f-group-text').textContent = `${state.group.by}: ${state.group.key}`;
      byId('drift-panel').hidden = data.classes[k] !== 'drift';
      if (data.classes[k] === 'drift') renderGroups();
    }

    function renderGroups(): void {
      const groups = state.groupBy === 'entry' ? data.drift.byEntry : data.drift.byCategory;
      const pages = Math.max(1, Math.ceil(groups.length / GROUPS_PER_PAGE));
      state.groupPage = Math.min(state.groupPage, pages - 1);
      const from = state.groupPage * GROUPS_PER_PAGE;
      let lo = 0;
      let hi = 0;
      for (const g of groups) {
        lo = Math.min(lo, g[5]);
        hi = Math.max(hi, g[9]);
      }
      const x = (v: number) => `${(((v - lo) / (hi - lo || 1)) * 100).toFixed(2)}%`;
      const frag = document.createDocumentFragment();
      for (const g of groups.slice(from, from + GROUPS_PER_PAGE) as PageGroup[]) {
        const tr = el('tr', null, 'filterable');
        tr.title = 'show these questions';
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
        const dist = el('td');
        dist.append(bar, el('div', `${signed(g[5])} … ${signed(g[7])} … ${signed(g[9])}`, 'sub'));
        const name = el('td', g[0]);
        if (g[10]) name.append(el('div', g[10], 'sub clamp'));
        tr.append(name, el('td', fmt(g[1]), 'num'), el('td', `${fmt(g[2])} / ${fmt(g[3])}`, 'num'), el('td', signed(g[4]), `num ${g[4] > 0 ? 'delta-up' : g[4] < 0 ? 'delta-down' : ''}`), dist);
        tr.addEventListener('click', () => {
          state.group = { by: state.groupBy, key: g[0] };
          state.sort = 'size';
          state.desc = true;
          update();
        });
        frag.append(tr);
      }
      byId('groups-body').replaceChildren(frag);
      byId('groups-status').textContent = groups.length === 0 ? '' : `${fmt(from + 1)}–${fmt(Math.min(groups.length, from + GROUPS_PER_PAGE))} of ${fmt(groups.length)} ${state.groupBy === 'entry' ? 'entries' : 'categories'}, most drifting questions first`;
      byId<HTMLButtonElement>('g-prev').disabled = state.groupPage === 0;
      byId<HTMLButtonElement>('g-next').disabled = state.groupPage >= pages - 1;
    }

    const update = (resetPage = true) => {
      if (resetPage) state.page = 0;
      compute();
      render();
    };
    tagSelect.addEventListener('change', () => { state.tag = Number(tagSelect.value); update(); });
    categorySelect.addEventListener('change', () => { state.category = Number(categorySelect.value); update(); });
    sizeSelect.addEventListener('change', () => { state.size = Number(sizeSelect.value); update(); });
    sortSelect.addEventListener('change', () => {
      const [key, dir] = sortSelect.value.split(':');
      state.sort = key!;
      state.desc = dir === 'desc';
      update();
    });
    let timer: number | undefined;
    searchInput.addEventListener('input', () => {
      clearTimeout(timer);
      timer = window.setTimeout(() => { state.search = searchInput.value; update(); }, 150);
    });
    byId('f-group-clear').addEventListener('click', () => { state.group = null; update(); });
    byId('p-prev').addEventListener('click', () => { state.page--; render(); });
    byId('p-next').addEventListener('click', () => { state.page++; render(); });
    byId('g-prev').addEventListener('click', () => { state.groupPage--; renderGroups(); });
    byId('g-next').addEventListener('click', () => { state.groupPage++; renderGroups(); });
    const groupBy = byId<HTMLSelectElement>('g-by');
    groupBy.addEventListener('change', () => { state.groupBy = groupBy.value === 'category' ? 'category' : 'entry'; state.groupPage = 0; renderGroups(); });
    for (const th of Array.from(document.querySelectorAll<HTMLElement>('#changes th[data-sort]'))) {
      th.addEventListener('click', () => {
        const key = th.dataset['sort']!;
        state.desc = state.sort === key ? !state.desc : sorts[key]!.desc;
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
    byId('changes-body').addEventListener('click', (e) => toggle((e.target as HTMLElement).closest('tr')));
    byId('changes-body').addEventListener('keydown', (e) => { if (e.key === 'Enter') toggle((e.target as HTMLElement).closest('tr')); });

    // cards and slices drive the table
    const show = () => byId('changes').scrollIntoView();
    for (const a of Array.from(document.querySelectorAll<HTMLElement>('[data-class]'))) {
      a.addEventListener('click', (e) => {
        e.preventDefault();
        const k = cls(a.dataset['class'] ?? '');
        if (k >= 0) selectClass(k);
        show();
      });
    }
    for (const tr of Array.from(document.querySelectorAll<HTMLElement>('[data-filter]'))) {
      tr.addEventListener('click', () => {
        const value = tr.dataset['value'] ?? '';
        // a slice without a listed question matches none (-2), not all (-1)
        if (tr.dataset['filter'] === 'tag') {
          state.tag = data.tags.indexOf(value);
          if (state.tag < 0) state.tag = -2;
          tagSelect.value = String(state.tag);
        } else {
          state.category = data.categories.indexOf(value);
          if (state.category < 0) state.category = -2;
          categorySelect.value = String(state.category);
        }
        const broken = cls('broken');
        // a slice's regressions first, when it has any in the page
        if (byClass[broken]!.some((i) => (tr.dataset['filter'] === 'tag' ? rows[i]![3].includes(state.tag) : rows[i]![4] === state.category))) state.cls = broken;
        state.group = null;
        update();
        show();
      });
    }
    byId('changes-controls').hidden = false;
    if (ordered.has(state.cls)) selectClass(state.cls);
    update();
    (window as unknown as { __firstRenderMs: number }).__firstRenderMs = performance.now();
    document.body.dataset['ready'] = 'true';
  }

  if (typeof DecompressionStream === 'undefined') {
    status.textContent = 'This browser cannot unpack the embedded data (no DecompressionStream); open the page in a current browser.';
    return;
  }
  status.textContent = 'Loading changes…';
  load().then(start, (error: unknown) => { status.textContent = `Could not read the embedded data: ${String(error)}`; });
}
