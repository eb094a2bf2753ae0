import { A, C, SIDES } from './data.js';
import { order, type Sort } from '../shared/table.js';
import { deltaOf, type CompareView } from './view.js';

/** The sorts of the changes table: what the status line calls each, which way it first goes, its key of row i. */
export function sorts(view: CompareView): Record<string, { label: string; desc: boolean; key: (i: number) => number | string | [number, number] }> {
  const { data, rows } = view;
  return {
    size: { label: 'largest change first', desc: true, key: (i) => view.sizeOf(rows[i]!) },
    delta: { label: 'score Δ', desc: false, key: (i) => deltaOf(rows[i]!) ?? 0 },
    order: { label: 'dataset order', desc: false, key: (i) => i },
    id: { label: 'id', desc: false, key: (i) => rows[i]![C.id] },
    question: { label: 'question', desc: false, key: (i) => rows[i]![C.question].toLowerCase() },
    category: { label: 'category', desc: false, key: (i) => data.categories[rows[i]![C.category]]! },
  };
}

/** What the changes table shows: a class, filters (-1: none; -2: a value no question has), a group, a search, a sort. */
export interface ChangeQuery {
  cls: number;
  tag: number;
  category: number;
  /** A drift group chosen in the drift panel: the questions of that top-1 entry or category. */
  group: null | { by: 'entry' | 'category'; key: string };
  needle: string;
  sort: Sort;
}

/** An answer's entry as the page names it: its label, or its sequence number ('' for none). */
export const entryKey = (a: readonly [string, number, string, string] | null): string => (a === null ? '' : a[A.label] || `#${a[A.seq]}`);

/** What a search looks in: id, question, category, tags, both top-1s (text, label, number), the note, an edit's texts. */
export function changeText(view: CompareView, i: number): string {
  const { data } = view;
  const r = view.rows[i]!;
  const parts = [r[C.id], r[C.question], data.categories[r[C.category]], ...r[C.tags].map((t) => data.tags[t])];
  for (const a of [view.answerOf(r[SIDES.base.top]), view.answerOf(r[SIDES.head.top])]) if (a) parts.push(a[A.text], a[A.label], `#${a[A.seq]}`);
  const [note, edited] = [r[C.note], r[C.edited]];
  if (note) parts.push(note);
  if (edited) parts.push(...edited);
  return parts.join('\n');
}

/** The rows of the query's class that match it, in its order (ties in dataset order). */
export function selectChanges(view: CompareView, ofClass: readonly number[], q: ChangeQuery, matches: (i: number, needle: string) => boolean): number[] {
  const { data, rows } = view;
  const out: number[] = [];
  for (const i of ofClass) {
    const r = rows[i]!;
    if (q.tag !== -1 && !r[C.tags].includes(q.tag)) continue;
    if (q.category !== -1 && r[C.category] !== q.category) continue;
    if (q.group) {
      const key = q.group.by === 'entry' ? entryKey(view.answerOf(r[SIDES.head.top])) : data.categories[r[C.category]];
      if (key !== q.group.key) continue;
    }
    if (!matches(i, q.needle)) continue;
    out.push(i);
  }
  const key = sorts(view)[q.sort.key]!.key;
  const dir = q.sort.desc ? -1 : 1;
  out.sort((a, b) => order(key(a), key(b)) * dir || a - b);
  return out;
}
