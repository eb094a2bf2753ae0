/// <reference lib="dom" />
import type { PageAnswer, PageData, PageTurn } from './data.js';

/**
 * The conversations' script: every conversation as a thread of its turns, failing ones first, filtered by verdict, a
 * turn's outcome, category, language, tag and text, a page of threads at a time. It reads the page data the question
 * table's script unpacks (it hands it over in an `answer-eval:data` event, so this script comes first in the page).
 * Serialized with `Function.prototype.toString`, so it is self-contained; every node is built with `textContent`.
 */
export function threadsClient(): void {
  const PAGE_SIZES = [10, 25, 50];
  const byId = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;
  function el<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string | number | null, cls?: string): HTMLElementTagNameMap[K] {
    const node = document.createElement(tag);
    if (text !== undefined && text !== null) node.textContent = String(text);
    if (cls) node.className = cls;
    return node;
  }
  const container = document.getElementById('c-threads');
  if (!container) return;

  interface Thread {
    id: string;
    /** Its rows, in turn order. */
    rows: number[];
    verdict: string;
    at: number | null;
    user: string;
    failing: boolean;
  }

  function start(data: PageData): void {
    const rows = data.rows;
    const turnOf = (i: number): PageTurn => rows[i]![17]!;
    // a conversation's turns are consecutive rows: a new thread where the id changes or the turns start again
    const threads: Thread[] = [];
    rows.forEach((r, i) => {
      const t = r[17];
      if (!t) return;
      const last = threads[threads.length - 1];
      if (last && last.id === t[0] && t[1] > turnOf(last.rows[last.rows.length - 1]!)[1]) last.rows.push(i);
      else {
        const verdict = data.verdicts[t[3]]!;
        threads.push({ id: t[0], rows: [i], verdict, at: t[4], user: t[5], failing: verdict !== 'passed' });
      }
    });
    const state = { verdict: '', outcome: '', category: '', language: '', tag: '', search: '', page: 0, size: PAGE_SIZES[0]! };
    // threads the reader opened or closed, by index: others open when failing
    const toggled = new Map<number, boolean>();
    let view: number[] = [];
    let haystack: string[] | null = null;

    const answerOf = (ref: number | PageAnswer): PageAnswer => (typeof ref === 'number' ? data.answers[ref]! : ref);
    const topOf = (i: number): [PageAnswer, number] | null => {
      const r = rows[i]!;
      return r[10] < 0 ? null : [answerOf(r[9][2 * r[10]]!), r[9][2 * r[10] + 1] as number];
    };
    const outcomeOf = (i: number) => data.outcomes[rows[i]![4]]!;
    const flagsOf = (bits: number): string[] => data.flags.filter((_, k) => bits & (1 << k));

    // filters: each select offers what the threads hold, with how many threads
    const addOption = (select: HTMLSelectElement, value: string, label: string) => {
      const o = el('option', label);
      o.value = value;
      select.append(o);
    };
    const countBy = (key: (t: Thread) => Iterable<string>): Map<string, number> => {
      const counts = new Map<string, number>();
      for (const t of threads) for (const k of new Set(key(t))) counts.set(k, (counts.get(k) ?? 0) + 1);
      return counts;
    };
    const verdictSelect = byId<HTMLSelectElement>('c-verdict');
    const failingCount = threads.filter((t) => t.failing).length;
    addOption(verdictSelect, '', `all conversations (${threads.length})`);
    addOption(verdictSelect, 'failing', `failing: failed or error (${failingCount})`);
    const verdicts = countBy((t) => [t.verdict]);
    for (const v of data.verdicts) if (verdicts.get(v)) addOption(verdictSelect, v, `${v} (${verdicts.get(v)})`);
    const outcomeSelect = byId<HTMLSelectElement>('c-outcome');
    addOption(outcomeSelect, '', 'a turn of any outcome');
    const outcomes = countBy((t) => t.rows.map(outcomeOf));
    data.outcomes.forEach((o, k) => { if (outcomes.get(o)) addOption(outcomeSelect, o, `a turn ${data.outcomeLabels[k]} (${outcomes.get(o)})`); });
    const listSelect = (id: string, all: string, key: (t: Thread) => Iterable<string>): HTMLSelectElement => {
      const select = byId<HTMLSelectElement>(id);
      addOption(select, '', all);
      const counts = countBy(key);
      for (const k of [...counts.keys()].sort()) addOption(select, k, `${k} (${counts.get(k)})`);
      return select;
    };
    const categorySelect = listSelect('c-category', 'all categories', (t) => t.rows.map((i) => data.categories[rows[i]![14]]!));
    const languageSelect = listSelect('c-language', 'all languages', (t) => t.rows.map((i) => data.languages[rows[i]![2]]!));
    const tagSelect = listSelect('c-tag', 'all tags', (t) => t.rows.flatMap((i) => rows[i]![3].map((k) => data.tags[k]!)));
    const sizeSelect = byId<HTMLSelectElement>('c-size');
    for (const s of PAGE_SIZES) addOption(sizeSelect, String(s), `${s} per page`);
    const searchInput = byId<HTMLInputElement>('c-search');

    function hay(k: number): string {
      if (!haystack) {
        haystack = threads.map((t) => {
          const parts = [t.id, t.user];
          for (const i of t.rows) {
            const r = rows[i]!;
            const top = topOf(i);
            parts.push(r[1], r[5], r[13] ?? '', r[8] ?? '', turnOf(i)[7] ?? '');
            if (top) parts.push(top[0][0], top[0][2], `#${top[0][1]}`);
          }
          return parts.join('\n').toLowerCase();
        });
      }
      return haystack[k]!;
    }

    function compute(): void {
      const needle = state.search.trim().toLowerCase();
      const out: number[] = [];
      threads.forEach((t, k) => {
        if (state.verdict === 'failing' ? !t.failing : state.verdict !== '' && t.verdict !== state.verdict) return;
        const some = (test: (i: number) => boolean) => t.rows.some(test);
        if (state.outcome !== '' && !some((i) => outcomeOf(i) === state.outcome)) return;
        if (state.category !== '' && !some((i) => data.categories[rows[i]![14]] === state.category)) return;
        if (state.language !== '' && !some((i) => data.languages[rows[i]![2]] === state.language)) return;
        if (state.tag !== '' && !some((i) => rows[i]![3].some((x) => data.tags[x] === state.tag))) return;
        if (needle !== '' && !hay(k).includes(needle)) return;
        out.push(k);
      });
      // failing conversations first, each group in dataset order
      view = [...out.filter((k) => threads[k]!.failing), ...out.filter((k) => !threads[k]!.failing)];
    }

    /** What decided a failing conversation, in words: the deciding turn and why. */
    function decided(t: Thread): string {
      if (t.at === null) return `every turn passed (${t.rows.length} turn${t.rows.length === 1 ? '' : 's'})`;
      const i = t.rows.find((j) => turnOf(j)[1] === t.at);
      const r = i === undefined ? undefined : rows[i];
      const why = r ? (r[8] ?? (r[13] ? `${data.outcomeLabels[r[4]]}: ${r[13]}` : data.outcomeLabels[r[4]])) : '';
      return `${t.verdict} at turn ${t.at} of ${t.rows.length}${why ? `: ${why}` : ''}`;
    }

    function turnItem(i: number, t: Thread): HTMLLIElement {
      const r = rows[i]!;
      const turn = turnOf(i);
      const li = el('li', null, `turn${turn[1] === t.at ? ' decides' : ''}`);
      const head = el('div', null, 'turn-head');
      head.append(el('span', `turn ${turn[1]}`, 'turn-n'), el('span', data.outcomeLabels[r[4]], `badge o-${outcomeOf(i)}`));
      if (turn[1] === t.at) head.append(el('span', `decided the verdict`, 'decided'));
      const link = el('a', 'in the table', 'goto');
      link.href = '#questions';
      link.dataset['id'] = r[0];
      head.append(link);
      li.append(head);
      const asked = el('div', null, 'bubble user');
      asked.append(el('span', 'user', 'who'), el('div', r[1], 'text'));
      li.append(asked);
      const reply = el('div', null, 'bubble reply');
      const top = topOf(i);
      if (top) {
        const [a, score] = top;
        const who = el('div', null, 'who');
        who.append(el('span', 'top-1'), el('span', a[2] || `#${a[1]}`, 'label'), el('span', `#${a[1]} · score ${score.toFixed(1)}`, 'hint'));
        for (const f of flagsOf(a[4])) who.append(el('span', f, `flag f-${f}`));
        reply.append(who, el('div', a[0], 'text'));
      } else reply.append(el('div', r[8] ?? (outcomeOf(i) === 'skipped' ? 'not asked' : 'no answer (empty list)'), 'text hint'));
      if (turn[7] !== null) {
        const post = el('div', null, 'post');
        post.append(el('span', 'post-processed answer', 'k'), el('span', turn[7], 'v'));
        reply.append(post);
      }
      li.append(reply);
      const facts = el('div', null, 'turn-facts');
      const fact = (k: string, v: string, cls = '') => {
        const p = el('div', null, cls);
        p.append(el('span', k, 'k'), el('span', v, 'v'));
        facts.append(p);
      };
      fact('expected', r[5] || '(nothing: unlabeled)');
      if (turn[6].length > 0) {
        const checks = el('ul', null, 'checks');
        for (const [noun, expected, actual, passed] of turn[6]) {
          const c = el('li', null, passed === null ? 'unjudged' : passed ? 'pass' : 'fail');
          c.append(el('span', passed === null ? '–' : passed ? '✓' : '✗', 'mark'), el('span', `${noun}: ${expected}`), el('span', passed === null ? 'no reply' : `got ${actual ?? 'none'}`, 'hint'));
          checks.append(c);
        }
        const p = el('div');
        p.append(el('span', 'checks', 'k'), checks);
        facts.append(p);
      }
      if (r[13] !== null) fact('why', r[13], 'why');
      if (r[8] !== null) fact('error', r[8], 'why');
      li.append(facts);
      return li;
    }

    function threadNode(k: number): HTMLDetailsElement {
      const t = threads[k]!;
      const d = el('details', null, `thread v-${t.verdict}-edge`);
      d.open = toggled.get(k) ?? t.failing;
      d.dataset['k'] = String(k);
      const summary = el('summary');
      const line = el('div', null, 'thread-head');
      line.append(el('span', t.verdict, `badge v-${t.verdict}`), el('span', t.id, 'thread-id'));
      const first = rows[t.rows[0]!]!;
      const tags = first[3].map((x) => data.tags[x]!);
      line.append(el('span', [`${t.rows.length} turn${t.rows.length === 1 ? '' : 's'}`, t.user, ...tags].join(' · '), 'hint'));
      summary.append(line, el('div', decided(t), `thread-why${t.failing ? '' : ' hint'}`));
      d.append(summary);
      const list = el('ol', null, 'turns');
      for (const i of t.rows) list.append(turnItem(i, t));
      d.append(list);
      d.addEventListener('toggle', () => toggled.set(k, d.open));
      return d;
    }

    function render(): void {
      const pages = Math.max(1, Math.ceil(view.length / state.size));
      state.page = Math.min(state.page, pages - 1);
      const from = state.page * state.size;
      const slice = view.slice(from, from + state.size);
      const frag = document.createDocumentFragment();
      for (const k of slice) frag.append(threadNode(k));
      container!.replaceChildren(frag);
      byId('c-status').textContent = view.length === 0 ? 'No conversation matches these filters.'
        : `${from + 1}–${from + slice.length} of ${view.length} conversations${view.length < threads.length ? ` (filtered from ${threads.length})` : ''}, failing first · page ${state.page + 1} of ${pages}`;
      byId<HTMLButtonElement>('c-prev').disabled = state.page === 0;
      byId<HTMLButtonElement>('c-next').disabled = state.page >= pages - 1;
    }

    const update = () => {
      state.page = 0;
      compute();
      render();
    };
    const selects: [HTMLSelectElement, 'verdict' | 'outcome' | 'category' | 'language' | 'tag'][] = [
      [verdictSelect, 'verdict'], [outcomeSelect, 'outcome'], [categorySelect, 'category'], [languageSelect, 'language'], [tagSelect, 'tag'],
    ];
    for (const [select, key] of selects) select.addEventListener('change', () => { state[key] = select.value; update(); });
    sizeSelect.addEventListener('change', () => { state.size = Number(sizeSelect.value); update(); });
    let timer: number | undefined;
    searchInput.addEventListener('input', () => {
      clearTimeout(timer);
      timer = window.setTimeout(() => { state.search = searchInput.value; update(); }, 150);
    });
    byId('c-prev').addEventListener('click', () => { state.page--; render(); });
    byId('c-next').addEventListener('click', () => { state.page++; render(); });
    // links elsewhere on the page (class to-threads, data-verdict) show the conversations of a verdict
    document.addEventListener('click', (e) => {
      const link = (e.target as Element).closest<HTMLElement>('.to-threads');
      if (!link) return;
      e.preventDefault();
      for (const [select, key] of selects) select.value = state[key] = key === 'verdict' ? (link.dataset['verdict'] ?? '') : '';
      searchInput.value = state.search = '';
      update();
      byId('conversations').scrollIntoView();
    });
    byId('c-controls').hidden = false;
    update();
  }

  document.addEventListener('answer-eval:data', (e) => start((e as CustomEvent<PageData>).detail), { once: true });
}
