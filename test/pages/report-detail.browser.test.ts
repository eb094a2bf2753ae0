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
const drawn = (index: number) =>
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
      rows: table ? Array.from(table.querySelectorAll('tbody tr')).map((r) => [r.className, ...Array.from(r.querySelectorAll('td')).map((td) => td.textContent)]) : [],
    };
  }, [data, index] as [PageData, number]);

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
    expect(d.rows.map((row) => [row[1], row[2], row[3], row[7]])).toEqual(byScore.map((a, k) => [String(k + 1), a.answer_score.toFixed(3), String(a.sequence_number), a.answer]));
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
});
