import { describe, expect, it } from 'vitest';
import { ChangeList } from '../../src/compare/changes.js';
import { compareReports } from '../../src/compare/compare.js';
import { isConversationLine } from '../../src/compare/conversations.js';
import { sizeOf } from '../../src/compare/render/html/data.js';
import type { QuestionLine } from '../../src/compare/schema.js';
import { C } from '../../src/pages/compare/data.js';
import { changeText, selectChanges, type ChangeQuery } from '../../src/pages/compare/query.js';
import { compareView, num, signed } from '../../src/pages/compare/view.js';
import { needleOf, textSearch } from '../../src/pages/shared/search.js';
import { order } from '../../src/pages/shared/table.js';
import { answer, FILES, report, result } from '../compare/fixtures.js';
import { comparePageData } from '../helpers/page-data.js';

// compare.html's query (src/pages/compare/query.ts, view.ts) on the page data of a real comparison.

const N = 400;
const side = (i: number, head: boolean) => {
  const right = head ? i % 7 !== 0 : i % 11 !== 0;
  const score = 60 + (i % 13) + (head && i % 3 === 0 ? (i % 5) + 1 : 0);
  const top = right ? 1 : 2;
  return result(`q${i}`, right ? 'correct' : 'wrong', top, score, { tags: [`t${i % 3}`], answers: [answer(top, score), answer(right ? 9 : 1, 20)], top1Index: 0, rank: right ? 1 : 2 });
};
const changes = new ChangeList();
const c = compareReports(report(Array.from({ length: N }, (_, i) => side(i, false))), report(Array.from({ length: N }, (_, i) => side(i, true))), { files: FILES, resamples: 50 }, changes);
const view = compareView(comparePageData(c, changes));
const matches = textSearch((i) => changeText(view, i));
const byClass = (cls: string) => view.rows.flatMap((r, i) => (r[C.cls] === view.classOf(cls) ? [i] : []));
const select = (cls: string, q: Partial<ChangeQuery>) =>
  selectChanges(view, byClass(cls), { cls: view.classOf(cls), tag: -1, category: -1, group: null, needle: '', sort: { key: 'size', desc: true }, ...q }, matches).map((i) => view.rows[i]![C.id]);

describe('compare.html’s query', () => {
  it('measures a change as the Node side chose the page’s rows by', () => {
    const lines = changes.lines.filter((l): l is QuestionLine => !isConversationLine(l));
    expect(view.rows.map((r) => view.sizeOf(r))).toEqual(lines.map(sizeOf));
  });

  it('lists a class largest change first, ties in dataset order', () => {
    const broken = select('broken', {});
    expect(broken.length).toBe(c.counts.broken);
    const sizes = broken.map((id) => view.sizeOf(view.rows.find((r) => r[C.id] === id)!));
    for (let k = 1; k < sizes.length; k++) expect(order(sizes[k - 1]!, sizes[k]!)).toBeGreaterThanOrEqual(0);
  });

  it('filters by tag (a value no question has: none) and searches ids and answers', () => {
    const t1 = view.data.tags.indexOf('t1');
    expect(select('drift', { tag: t1 })).toEqual(select('drift', {}).filter((id) => Number(id.slice(1)) % 3 === 1));
    expect(select('drift', { tag: -2 })).toEqual([]);
    const last = select('drift', { sort: { key: 'order', desc: true } })[0]!;
    expect(Number(last.slice(1))).toBeGreaterThan(N - 10);
    expect(select('drift', { needle: needleOf(` ${last.toUpperCase()} `) })).toEqual([last]);
  });

  it('writes scores to 3 decimals, a change with its sign, float noise as no change', () => {
    expect([num(0.12345), num(-2.5), num(3.5e-15)]).toEqual(['0.123', '-2.5', '0']);
    expect([signed(1.25), signed(-0.25), signed(3.5e-15)]).toEqual(['+1.25', '−0.25', '±0']);
  });
});
