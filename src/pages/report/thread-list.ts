import { A, R, T, type PageTurn } from './data.js';
import type { PageView } from './view.js';

/** A conversation: its rows in turn order, how it ended, and the turn that decided it. */
export interface Thread {
  id: string;
  rows: number[];
  verdict: string;
  at: number | null;
  user: string;
  failing: boolean;
}

export const turnOf = (view: PageView, i: number): PageTurn => view.rows[i]![R.turn]!;

/** The conversations of the page data: a conversation's turns are consecutive rows, a new one where the id changes or the turns start again. */
export function threadsOf(view: PageView): Thread[] {
  const threads: Thread[] = [];
  view.rows.forEach((r, i) => {
    const t = r[R.turn];
    if (!t) return;
    const last = threads[threads.length - 1];
    if (last && last.id === t[T.conversation] && t[T.turn] > turnOf(view, last.rows[last.rows.length - 1]!)[T.turn]) last.rows.push(i);
    else {
      const verdict = view.data.verdicts[t[T.verdict]]!;
      threads.push({ id: t[T.conversation], rows: [i], verdict, at: t[T.at], user: t[T.user], failing: verdict !== 'passed' });
    }
  });
  return threads;
}

/** What the thread filters hold ('' for none), and the text looked for. */
export interface ThreadQuery {
  /** A verdict, `failing`, or ''. */
  verdict: string;
  /** A turn of this outcome. */
  outcome: string;
  category: string;
  language: string;
  tag: string;
  needle: string;
}

/** What a search looks in: the conversation's id and user, each turn's question, expected, why, error, post-processed answer and top-1. */
export function threadText(view: PageView, t: Thread): string {
  const parts = [t.id, t.user];
  for (const i of t.rows) {
    const r = view.rows[i]!;
    const top = view.topOf(i);
    parts.push(r[R.question], r[R.expected], r[R.why] ?? '', r[R.error] ?? '', turnOf(view, i)[T.post] ?? '');
    if (top) parts.push(top[0][A.text], top[0][A.label], `#${top[0][A.seq]}`);
  }
  return parts.join('\n');
}

/** The threads that match, failing ones first, each group in dataset order. */
export function selectThreads(view: PageView, threads: readonly Thread[], q: ThreadQuery, matches: (k: number, needle: string) => boolean): number[] {
  const { data, rows } = view;
  const out: number[] = [];
  threads.forEach((t, k) => {
    if (q.verdict === 'failing' ? !t.failing : q.verdict !== '' && t.verdict !== q.verdict) return;
    const some = (test: (i: number) => boolean) => t.rows.some(test);
    if (q.outcome !== '' && !some((i) => view.outcomeOf(i) === q.outcome)) return;
    if (q.category !== '' && !some((i) => data.categories[rows[i]![R.category]] === q.category)) return;
    if (q.language !== '' && !some((i) => data.languages[rows[i]![R.language]] === q.language)) return;
    if (q.tag !== '' && !some((i) => rows[i]![R.tags].some((x) => data.tags[x] === q.tag))) return;
    if (!matches(k, q.needle)) return;
    out.push(k);
  });
  return [...out.filter((k) => threads[k]!.failing), ...out.filter((k) => !threads[k]!.failing)];
}

/** What decided a conversation, in words: the deciding turn and why (every turn passed: how many). */
export function decided(view: PageView, t: Thread): string {
  if (t.at === null) return `every turn passed (${t.rows.length} turn${t.rows.length === 1 ? '' : 's'})`;
  const i = t.rows.find((j) => turnOf(view, j)[T.turn] === t.at);
  const r = i === undefined ? undefined : view.rows[i];
  let why = '';
  if (r) {
    const label = view.data.outcomeLabels[r[R.outcome]]!;
    why = r[R.error] ?? (r[R.why] ? `${label}: ${r[R.why]}` : label);
  }
  return `${t.verdict} at turn ${t.at} of ${t.rows.length}${why ? `: ${why}` : ''}`;
}
