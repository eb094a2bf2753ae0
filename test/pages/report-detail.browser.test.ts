import { existsSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as Detail from '../../src/pages/report/detail.js';
import type { PageData } from '../../src/pages/report/data.js';
import type * as View from '../../src/pages/report/view.js';
import { CHROMIUM, launchBrowser, type OpenPage } from '../helpers/browser.js';
import { reportPageData } from '../helpers/page-data.js';
import { openModules } from '../helpers/page-modules.js';
import { makeReport } from '../helpers/report-fixture.js';

// report.html's question detail (src/pages/report/detail.ts) drawn in Chromium from the page data of a real report.

interface Modules {
  detail: typeof Detail;
  view: typeof View;
}
const ENTRY = `
import * as detail from './src/pages/report/detail.js';
import * as view from './src/pages/report/view.js';
Object.assign(window, { detail, view });`;

const report = makeReport(300);
const data = reportPageData(report);
const hasChromium = existsSync(CHROMIUM);
let browser: Browser;
let opened: OpenPage;

/** The detail of question `index`, as the table shows it under its row, read back as text. */
const drawn = (index: number) => drawnIn(data, index);
const drawnIn = (pageData: PageData, index: number) =>
  opened.page.evaluate(([d, i]) => {
    const { detail, view } = window as unknown as Modules;
    const tr = detail.detailRow(view.pageView(d), i, 9);
    document.body.replaceChildren(tr);
    const table = tr.querySelector('table.ranked');
    return {
      span: tr.querySelector('td')!.colSpan,
      facts: Array.from(tr.querySelectorAll('.facts > div')).map((f) => [f.querySelector('.k')!.textContent, f.querySelector('.v')!.textContent]),
      hints: Array.from(tr.querySelectorAll('p.hint')).map((p) => p.textContent),
      seen: tr.querySelector('p.seen')?.textContent ?? null,
      heads: table ? Array.from(table.querySelectorAll('th')).map((th) => th.textContent) : null,
      rows: table ? Array.from(table.querySelectorAll('tbody tr')).map((r) => [r.className, ...Array.from(r.querySelectorAll('td')).map((td) => td.firstChild?.textContent ?? '')]) : [],
      fields: table ? Array.from(table.querySelectorAll('td.answer .fields')).map((f) => f.textContent) : [],
      body: tr.querySelector('details.reply-body') ? { summary: tr.querySelector('details.reply-body summary')!.textContent, pre: tr.querySelector('details.reply-body pre')?.textContent ?? null, elements: tr.querySelectorAll('details.reply-body pre *').length } : null,
    };
  }, [pageData, index] as [PageData, number]);

/** The detail of a row made for the test (the page data's other rows as they are). */
const drawnRow = (row: PageData['rows'][number]) => {
  const rows = [...data.rows];
  rows[0] = row;
  return drawnIn({ ...data, rows }, 0);
};

describe.skipIf(!hasChromium)('the question detail, in Chromium', () => {
  beforeAll(async () => {
    browser = await launchBrowser();
    opened = await openModules(browser, ENTRY, '');
  }, 60_000);
  afterAll(async () => {
    await opened?.close();
    await browser?.close();
  });

  it('lists the facts, then the ranked answers by score: the top-1 and the first match marked, the expected one named', async () => {
    const i = report.results.findIndex((r) => r.rank === 2);
    const r = report.results[i]!;
    const byScore = r.answers.map((a, k) => [a, k] as const).sort(([a, j], [b, k]) => b.answer_score - a.answer_score || j - k).map(([a]) => a);
    const d = await drawn(i);
    expect(d.span).toBe(9);
    expect(d.facts.slice(0, 3)).toEqual([['why', r.reason], ['question', r.question], ['expected', expect.any(String)]]);
    expect(d.heads).toEqual(['rank', 'score', 'seq', 'label', 'category', 'flags', 'answer']);
    expect(d.rows.map((row) => row[0])).toEqual(byScore.map((_, k) => (k === 0 ? 'top1' : k === 1 ? 'match' : '')));
    expect(d.rows.map((row) => [row[1], row[2], row[3], row[7]])).toEqual(byScore.map((a, k) => [String(k + 1), String(a.answer_score), String(a.sequence_number), a.answer]));
    expect(d.seen).toBe(`The expected answer, seen at rank 2: ${byScore[1]!.answer}`);
  });

  it('shows an unordered list by score and says so; a failed request says there is no answer', async () => {
    const unordered = report.results.findIndex((r) => r.unordered);
    const d = await drawn(unordered);
    expect(d.hints).toEqual(['The service did not send this list in descending score order; shown by score.']);
    const scores = d.rows.map((row) => Number(row[2]));
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    const failed = await drawn(report.results.findIndex((r) => r.error !== null));
    expect(failed.hints).toEqual(['No answer: the request failed.']);
    expect(failed.heads).toBeNull();
    expect(opened.problems).toEqual([]);
  });

  it('shows the fields issue 26 brought: post-processed answer, what was sent, the output, each answer\'s other fields, the reply as text', async () => {
    const i = report.results.findIndex((r) => r.error === null && r.answers.length > 0 && !r.conversation);
    const row = structuredClone(data.rows[i]!);
    const body = '<answers><answer><answer>Pay <b>now</b></answer><script>alert(1)</script></answer></answers>';
    row[19] = { post: 'ehi! already answered', sent: 'output=xml; force_subscription=1', reply: { output: 'xml', body, cut: true } };
    row[17] ??= null;
    row[18] ??= null;
    const answer = structuredClone(data.answers[row[9][0] as number] ?? (row[9][0] as PageData['answers'][number]));
    answer[5] = { theme: 'Bills', sub_category: 'late', tags: 'a|b', delay: 2 };
    row[9][0] = answer;
    const d = await drawnRow(row);
    expect(d.facts).toEqual(expect.arrayContaining([['post-processed answer', 'ehi! already answered'], ['sent', 'output=xml; force_subscription=1'], ['asked as', '--output xml']]));
    expect(d.fields).toContain('theme Bills · sub_category late · tags a|b · delay 2 s');
    expect(d.body).toEqual({ summary: 'The reply as it came (xml), cut after 4,096 characters', pre: body, elements: 0 });
    // a text reply has no scores: shown as —, not 0
    row[19] = { reply: { output: 'text' } };
    const text = await drawnRow(row);
    expect(text.rows.every((r) => r[2] === '—')).toBe(true);
    expect(text.body).toBeNull();
    expect(opened.problems).toEqual([]);
  });
});
