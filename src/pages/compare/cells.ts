import { el, fact } from '../shared/dom.js';
import { A, C, SIDES, type PageRow, type Side } from './data.js';
import { entryKey } from './query.js';
import { deltaOf, num, signed, type CompareView } from './view.js';

/** A cell with its column's name, which a narrow screen shows beside the value (`data-label`). */
export function cell(text: string | number | null, cls: string, label: string): HTMLTableCellElement {
  const td = el('td', text, cls);
  td.dataset['label'] = label;
  return td;
}

/** One side of a change: its outcome, then its top-1 (entry, score, rank, text), or, for an edited question, what it was. */
export function sideCell(view: CompareView, r: PageRow, which: Side): HTMLTableCellElement {
  const { data } = view;
  const f = SIDES[which];
  const td = cell(null, 'side', which);
  const o = r[f.outcome];
  if (o < 0) {
    td.append(el('span', which === 'base' ? 'not in base' : 'not in head', 'hint'));
    return td;
  }
  td.append(el('span', data.outcomeLabels[o], `badge o-${data.outcomes[o]}`), document.createTextNode(' '));
  const edited = r[C.edited];
  if (edited) {
    const [baseQuestion, baseExpected, headExpected] = edited;
    td.append(el('div', which === 'base' ? `was: ${baseQuestion === r[C.question] ? '(same question)' : baseQuestion}` : `now: ${r[C.question]}`, 'sub'));
    td.append(el('div', `expected: ${which === 'base' ? baseExpected : headExpected}`, 'sub'));
    return td;
  }
  const a = view.answerOf(r[f.top]);
  const score = r[f.score];
  const rank = r[f.rank];
  if (a) {
    td.append(el('span', entryKey(a), 'label'));
    td.append(el('span', `${score === null ? '' : num(score)}${rank !== null ? ` · rank ${rank}` : ''}`, 'hint'));
    td.append(el('div', a[A.text], 'answer'));
  } else if (data.outcomes[o] !== 'error') td.append(el('span', 'no answer', 'hint'));
  return td;
}

/** How far the expected answer moved, then the top-1 score (the measure the rows are sorted by), then the note. */
export function changeCell(r: PageRow): HTMLTableCellElement {
  const { base, head } = SIDES;
  const td = cell(null, 'num', 'change');
  if (r[base.rank] !== r[head.rank] && r[base.outcome] >= 0 && r[head.outcome] >= 0) td.append(el('div', `rank ${r[base.rank] ?? 'none'} → ${r[head.rank] ?? 'none'}`));
  const d = deltaOf(r);
  if (d !== null) td.append(el('div', `score ${signed(d)}`, d > 0 ? 'delta-up' : d < 0 ? 'delta-down' : ''));
  const note = r[C.note];
  if (note) td.append(el('div', note, 'sub'));
  return td;
}

/** The row under an open change: the question's facts, then both top-1 answers in full. */
export function detailRow(view: CompareView, r: PageRow, columns: number): HTMLTableRowElement {
  const { data } = view;
  const tr = el('tr', null, 'detail');
  const td = el('td');
  td.colSpan = columns;
  const meta = el('div');
  const items: [string, string][] = [['question', r[C.question]], ['category', data.categories[r[C.category]]!], ['tags', r[C.tags].map((t) => data.tags[t]).join(', ') || '—']];
  const note = r[C.note];
  if (note) items.push(['note', note]);
  for (const [k, v] of items) meta.append(fact(k, v));
  const pair = el('div', null, 'pair');
  for (const which of ['base', 'head'] as const) {
    const f = SIDES[which];
    const box = el('div');
    const a = view.answerOf(r[f.top]);
    const o = r[f.outcome];
    box.append(el('div', `${which} · ${o < 0 ? 'absent' : data.outcomeLabels[o]}`, 'k'));
    if (a) {
      box.append(el('div', `${a[A.label] || '(no label)'} · #${a[A.seq]}${a[A.category] ? ` · ${a[A.category]}` : ''} · score ${num(r[f.score] ?? 0)}`, 'hint'));
      box.append(el('div', a[A.text], 'v'));
    }
    const rank = r[f.rank];
    if (rank !== null) box.append(el('div', `expected answer at rank ${rank}`, 'hint'));
    pair.append(box);
  }
  td.append(meta, pair);
  tr.append(td);
  return tr;
}
