import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChangeList } from '../../src/compare/changes.js';
import { compareReports } from '../../src/compare/compare.js';
import { renderCompareHtml } from '../../src/compare/render/html/index.js';
import type { QuestionResult } from '../../src/model/report.js';
import { launchBrowser, sharedPage, type Screen, type SharedPage } from '../helpers/browser.js';
import { tempDir } from '../helpers/tmp.js';
import { answer, FILES, report, result } from './fixtures.js';

const XSS = '<script>window.__xss=1</script>';
const IMG = '<img src=x onerror="window.__xss=2">';
const N = 3000;

/**
 * Question i on each side: 1 in 10 broken (every third one losing its expected answer from the list altogether:
 * the largest changes), 1 in 15 fixed, 1 in 30 top-1 changed (wrong on both sides), a third of the rest drifting
 * (by i % 7 points, on entries 1..12), some errors; a few added, removed and edited; hostile strings throughout.
 */
function side(i: number, head: boolean): QuestionResult | undefined {
  if (head && i % 100 === 1) return undefined; // removed
  const expected = (i % 12) + 1;
  const tags = [`t${i % 4}`, ...(i % 97 === 0 ? [`x${XSS}`] : [])];
  const category = i % 50 === 0 ? `cat ${IMG}` : `cat-${i % 5}`;
  const base = { id: i % 113 === 0 ? `q${i} ${XSS}` : `q${i}`, question: `How do I do thing ${i}? ${i % 41 === 0 ? IMG : ''}`, tags, expected: { expect: 'answer' as const, sequence: [String(expected)] } };
  const ans = (seq: number, score: number) => answer(seq, score, { category, answer: `Answer ${seq} ${seq === 3 ? XSS : ''}`, label: `entry-${seq}` });
  const broken = head && i % 10 === 0;
  const fixed = head && i % 15 === 7;
  const changedTop = i % 30 === 11;
  const right = head ? (i % 15 === 7 ? true : !broken && i % 15 !== 7 && !changedTop) : i % 15 !== 7 && !changedTop;
  if (head && i % 200 === 3) return result(base.id, 'error', null, 0, { ...base });
  const drift = head && !broken && !fixed && i % 3 === 0 ? (i % 7) + 1 : 0;
  const top = right ? expected : changedTop && head ? ((expected + 2) % 12) + 1 : (expected % 12) + 1;
  const lost = broken && i % 30 === 0; // the expected answer is not in the list any more
  const answers = [ans(top, 80 + (i % 9) + drift - (broken ? (i % 11) : 0)), ...(right || lost ? [ans(((expected + 5) % 12) + 1, 30)] : [ans(expected, 40)])];
  const edited = head && i % 300 === 5 ? { question: `reworded ${IMG} ${i}` } : {};
  return result(base.id, right ? 'correct' : 'wrong', top, 0, { ...base, ...edited, answers, top1Index: 0, rank: right ? 1 : lost ? null : 2 });
}

const bases = Array.from({ length: N }, (_, i) => side(i, false)!);
const heads = [...Array.from({ length: N }, (_, i) => side(i, true)).filter((r): r is QuestionResult => r !== undefined), ...Array.from({ length: 25 }, (_, k) => result(`new${k}`, 'correct'))];
const changes = new ChangeList();
const c = compareReports(report(bases), report(heads), { files: FILES, resamples: 200 }, changes);
const dir = tempDir();
const write = (name: string, pageRows?: number): string => {
  const file = join(dir, name);
  writeFileSync(file, [...renderCompareHtml(c, changes, pageRows === undefined ? {} : { pageRows })].join(''));
  return file;
};
const compareHtml = write('compare.html');

let browser: Browser;
let shared: SharedPage;
beforeAll(async () => {
  browser = await launchBrowser();
  shared = await sharedPage(browser);
});
afterAll(async () => {
  await shared?.close();
  await browser?.close();
});

const WIDE: Screen = { viewport: { width: 1440, height: 900 } };

/** Requests beyond the page's own file. */
const others = (file: string): string[] => shared.requests.filter((u) => u !== pathToFileURL(file).href);

const status = (page: Page) => page.locator('#changes-status').innerText();
const column = (page: Page, k: number) => page.locator(`#changes-body tr.row td:nth-child(${k})`).allInnerTexts();
const ids = async (page: Page) => (await column(page, 1)).map((t) => t.split('\n')[0]!);

describe('compare.html in headless Chromium, with thousands of changes', () => {
  it('has the expected classes (a sizeable comparison)', () => {
    expect(c.counts.broken).toBeGreaterThan(250);
    expect(c.counts.drift).toBeGreaterThan(500);
    expect(c.counts).toMatchObject({ added: 25, removed: 30, changed: 10 });
  });

  // the tests that only read a page first, on one document
  for (const colorScheme of ['light', 'dark'] as const) {
    it(`fits 390 px without sideways scrolling, links readable (${colorScheme})`, async () => {
      const page = await shared.view(compareHtml, { viewport: { width: 390, height: 844 }, colorScheme });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      // WCAG contrast of a link on its card: at least 4.5
      const contrast = await page.evaluate(() => {
        const rgb = (s: string) => s.match(/\d+(\.\d+)?/g)!.slice(0, 3).map(Number).map((v) => v / 255).map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
        const lum = (s: string) => { const [r, g, b] = rgb(s); return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!; };
        const link = document.querySelector('a.jump')!;
        const card = link.closest('.card')!;
        const [a, b] = [lum(getComputedStyle(link).color), lum(getComputedStyle(card).backgroundColor)];
        return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
      });
      expect(contrast).toBeGreaterThanOrEqual(4.5);
      expect(shared.problems).toEqual([]);
    });
  }

  it('with a quarantine, the questions that broke but are quarantined have a tab and a card link of their own; without one, no such tab', async () => {
    const plain = await shared.view(compareHtml, WIDE);
    expect(await plain.locator('#class-tabs button', { hasText: /^broke, but quarantined/ }).isVisible()).toBe(false);
    const quarantined = new ChangeList();
    const q = compareReports(report(bases), report(heads), { files: FILES, resamples: 200, quarantine: { file: 'q.txt', ids: new Map([['q10', 1], ['q20', 2]]) } }, quarantined);
    const file = join(dir, 'quarantined.html');
    writeFileSync(file, [...renderCompareHtml(q, quarantined)].join(''));
    const page = await shared.load(file, WIDE);
    expect(await page.locator('.cards').innerText()).toContain('2 broke, but quarantined →');
    await page.locator('#class-tabs button', { hasText: /^broke, but quarantined/ }).click();
    expect(await status(page)).toMatch(/^1–2 of 2 broke, but quarantined/);
    expect((await ids(page)).sort()).toEqual(['q10', 'q20']);
    await page.locator('#class-tabs button', { hasText: /^broken/ }).click();
    expect(await status(page)).toMatch(new RegExp(`^1–50 of ${c.counts.broken - 2} broken`));
    expect(shared.problems).toEqual([]);
  });

  it('opens on the verdict and the metrics, then the broken questions, largest change first, paged; no console error, no request, hostile strings as text', async () => {
    const page = await shared.load(compareHtml, WIDE);
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
    expect(await page.locator('img').count()).toBe(0);
    // the first screen: cards and metrics before the changes
    const order = await page.evaluate(() => ['.cards', '#metrics', '#changes'].map((s) => document.querySelector(s)!.getBoundingClientRect().top));
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(await page.locator('#class-tabs button[aria-pressed=true]').innerText()).toMatch(/^broken/);
    expect(await status(page)).toBe(`1–50 of ${c.counts.broken} broken · page 1 of ${Math.ceil(c.counts.broken / 50)} · sorted by largest change first`);
    // the expected answer fell out of the list (rank 1 → none: a third of them) before those that slipped to rank 2
    expect((await column(page, 5)).every((t) => t.startsWith('rank 1 → none'))).toBe(true);
    // hostile ids, questions and answers are text
    await page.fill('#f-search', 'script');
    await expect.poll(() => status(page)).toMatch(/ of \d+ broken \(filtered from/);
    expect(await page.locator('#changes-body').innerText()).toContain(XSS);
    await page.fill('#f-search', '');
    await expect.poll(() => status(page)).toMatch(new RegExp(`^1–50 of ${c.counts.broken} broken`));
    // paging
    const first = await ids(page);
    await page.click('#p-next');
    expect(await status(page)).toMatch(/^51–100 of /);
    expect(await ids(page)).not.toEqual(first);
    expect(shared.problems).toEqual([]);
    expect(others(compareHtml)).toEqual([]);
  });

  it('sorts by a column, filters by text, tag and category, and opens a row on both answers', async () => {
    const page = await shared.load(compareHtml, WIDE);
    await page.click('#changes th[data-sort=id]');
    const sorted = await ids(page);
    expect(sorted).toEqual([...sorted].sort());
    await page.click('#changes th[data-sort=id]');
    expect(await ids(page)).toEqual([...(await ids(page))].sort().reverse());
    await page.selectOption('#f-tag', { label: 't2' });
    const withTag = c.questions.broken.filter((q) => q.tags.includes('t2')).length;
    expect(await status(page)).toMatch(new RegExp(` of ${withTag} broken \\(filtered from ${c.counts.broken}\\)`));
    await page.selectOption('#f-category', { label: 'cat-0' });
    for (const text of await column(page, 1)) expect(text).toContain('cat-0');
    await page.selectOption('#f-tag', { label: 'all tags' });
    await page.selectOption('#f-category', { label: 'all categories' });
    await page.fill('#f-search', 'thing 120?');
    await expect.poll(() => ids(page)).toEqual(['q120']);
    await page.click('#changes-body tr.row');
    const detail = await page.locator('#changes-body tr.detail').innerText();
    expect(detail).toContain('base · correct');
    expect(detail).toContain('head · wrong');
    expect(shared.problems).toEqual([]);
  });

  it('groups the drift by entry and by category; a group shows its questions, largest first', async () => {
    const page = await shared.load(compareHtml, WIDE);
    await page.locator('#class-tabs button', { hasText: /^score drift/ }).click();
    expect(await page.locator('#drift-panel').isVisible()).toBe(true);
    const groups = await page.locator('#groups-body tr').allInnerTexts();
    expect(groups[0]).toContain(c.drift.byEntry[0]!.key);
    await page.locator('#groups-body tr').first().click();
    expect(await page.locator('#f-group-text').innerText()).toBe(`entry: ${c.drift.byEntry[0]!.key}`);
    expect(await status(page)).toMatch(new RegExp(` of ${c.drift.byEntry[0]!.count} score drift`));
    const deltas = (await column(page, 5)).map((t) => Number(/score ([+−±])([\d.]+)/.exec(t)![2]));
    expect(deltas).toEqual([...deltas].sort((a, b) => b - a));
    await page.selectOption('#g-by', 'category');
    expect(await page.locator('#groups-body tr').first().innerText()).toContain(c.drift.byCategory[0]!.key);
    await page.click('#f-group-clear');
    expect(await status(page)).toMatch(new RegExp(` of ${c.counts.drift} score drift`));
    expect(shared.problems).toEqual([]);
  });

  it('lists added, removed and edited questions apart, in dataset order, edited ones with both versions', async () => {
    const page = await shared.load(compareHtml, WIDE);
    await page.locator('#class-tabs button', { hasText: /^changed/ }).click();
    expect(await status(page)).toMatch(/sorted by dataset order$/);
    const text = await page.locator('#changes-body').innerText();
    expect(text).toContain(`now: reworded ${IMG} 5`);
    expect(text).toContain('was: How do I do thing 5?');
    await page.locator('#class-tabs button', { hasText: /^added/ }).click();
    expect((await ids(page)).slice(0, 3)).toEqual(['new0', 'new1', 'new2']);
    expect(shared.problems).toEqual([]);
  });

  it('a category slice shows its changes; a class over the page limit holds its largest and says so', async () => {
    const page = await shared.load(write('capped.html', 100), WIDE);
    expect(await page.locator('#changes-capped').innerText()).toBe(`This page holds the 100 largest of ${c.counts.broken} broken questions; changes.jsonl lists every one.`);
    expect((await column(page, 5)).slice(0, 50).every((t) => t.includes('rank 1 → none'))).toBe(true);
    await page.locator('tr[data-filter=category][data-value="cat-1"]').click();
    expect(await page.locator('#f-category option:checked').innerText()).toBe('cat-1');
    for (const text of await column(page, 1)) expect(text).toContain('cat-1');
    expect(shared.problems).toEqual([]);
  });
});
