import { A, R } from './data.js';
import type { Sort } from '../shared/table.js';
import type { PageView } from './view.js';

/** What the question table shows: filters ('' for none), a search, and a sort. */
export interface QuestionQuery {
  /** An outcome, `failing` (data.attention), or '' (all). */
  outcome: string;
  category: string;
  language: string;
  tag: string;
  /** An entry key as the entry table counts it (QuestionFilter.expected, .got). */
  expected: string;
  got: string;
  /** Lower-cased text to look for (shared/search.ts, needleOf). */
  needle: string;
  /** A key of sortKeys. */
  sort: Sort;
}

/** The columns the table sorts by, each a key of a row; ties go in dataset order. */
export function sortKeys(view: PageView): Record<string, (i: number) => string | number> {
  const { data, rows } = view;
  return {
    line: (i) => rows[i]![R.line],
    id: (i) => rows[i]![R.id],
    question: (i) => rows[i]![R.question].toLowerCase(),
    language: (i) => data.languages[rows[i]![R.language]]!,
    outcome: (i) => rows[i]![R.outcome],
    score: (i) => view.topOf(i)?.[1] ?? -1,
    latency: (i) => rows[i]![R.latency] ?? -1,
  };
}

/** Columns that sort highest first on the first click. */
export const FIRST_DESC = new Set(['score', 'latency']);

/** What a search looks in: id, question, expected, the top-1 answer (text, label, number), the error, the metadata. */
export function questionText(view: PageView, i: number): string {
  const r = view.rows[i]!;
  const top = view.topOf(i);
  const a = top ? top[0] : null;
  const meta = (r[R.meta] ?? []).map(([k, v]) => `${k}: ${v}`).join('\n');
  return `${r[R.id]}\n${r[R.question]}\n${r[R.expected]}\n${a ? `${a[A.text]}\n${a[A.label]}\n${a[A.seq]}` : ''}\n${r[R.error] ?? ''}\n${meta}`;
}

/** The rows that match the query, in its order. `matches` is the text search (shared/search.ts). */
export function selectQuestions(view: PageView, q: QuestionQuery, matches: (i: number, needle: string) => boolean): number[] {
  const { data, rows } = view;
  // -1: no filter; -2: a value no question has, so none matches
  const indexIn = (list: readonly string[], value: string) => (value === '' ? -1 : list.includes(value) ? list.indexOf(value) : -2);
  const lang = indexIn(data.languages, q.language);
  const tag = indexIn(data.tags, q.tag);
  const category = indexIn(data.categories, q.category);
  const [expected, got] = [indexIn(data.entries, q.expected), indexIn(data.entries, q.got)];
  const out: number[] = [];
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!;
    const o = data.outcomes[r[R.outcome]]!;
    if (q.outcome === 'failing' ? !data.attention.includes(o) : q.outcome !== '' && o !== q.outcome) continue;
    if (lang !== -1 && r[R.language] !== lang) continue;
    if (tag !== -1 && !r[R.tags].includes(tag)) continue;
    if (category !== -1 && r[R.category] !== category) continue;
    if (expected !== -1 && r[R.expectedEntry] !== expected) continue;
    if (got !== -1 && r[R.gotEntry] !== got) continue;
    if (!matches(i, q.needle)) continue;
    out.push(i);
  }
  const key = sortKeys(view)[q.sort.key]!;
  const dir = q.sort.desc ? -1 : 1;
  out.sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    return (ka < kb ? -1 : ka > kb ? 1 : rows[a]![R.line] - rows[b]![R.line]) * dir;
  });
  return out;
}
