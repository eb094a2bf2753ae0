import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, launchBrowser, sharedPage, type SharedPage } from '../helpers/browser.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

// The three pages as the CLI writes them (npm test builds it first), on a phone and a wide screen, light and dark:
// runs of the sample dialogues (a baseline, then a run against it: report.html with conversations, and compare.html),
// and three runs of the sample questions the same day (a plain report.html, and trend.html over them).

const hasChromium = existsSync(CHROMIUM);
const dir = tempDir('answer-eval-screens-');
const PHONE = { width: 390, height: 844 };
const WIDE = { width: 1440, height: 900 };
const SCREENS = [[PHONE, 'light'], [PHONE, 'dark'], [WIDE, 'light'], [WIDE, 'dark']] as const;
let browser: Browser;
let shared: SharedPage;

const PAGES = {
  'report.html with conversations and a baseline': 'head/report.html',
  'compare.html': 'head/compare.html',
  'report.html': 'plain-3/report.html',
  'trend.html': 'trend/trend.html',
};

async function cli(args: string[]): Promise<void> {
  const res = await runCli(args, {}, 120_000);
  expect(res.code, res.stderr).toBe(0);
}

/**
 * What does not fit: the page's sideways scroll, a table cell narrower than a word it holds (a crushed cell: the word
 * is broken wherever it can be, or sticks out), an id broken over two lines, a chart wider than its box or the
 * screen. `[]`: everything fits.
 */
const misfits = (page: Page) =>
  page.evaluate(() => {
    const found: string[] = [];
    const scroller = document.scrollingElement!;
    if (scroller.scrollWidth > window.innerWidth) found.push(`the page scrolls sideways: ${scroller.scrollWidth} px in ${window.innerWidth}`);
    const name = (el: Element) => `${el.tagName.toLowerCase()}${el.className ? `.${String(el.className).trim().replace(/\s+/g, '.')}` : ''}`;
    for (const box of Array.from(document.querySelectorAll<HTMLElement>('td, th, .thread-id'))) {
      if (box.getClientRects().length === 0) continue; // not shown
      const style = getComputedStyle(box);
      const room = box.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      const isId = box.matches('td.id, .thread-id');
      const walker = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (const m of (node.textContent ?? '').matchAll(/\S{2,}/g)) {
          const range = document.createRange();
          range.setStart(node, m.index);
          range.setEnd(node, m.index + m[0].length);
          const rects = Array.from(range.getClientRects()).filter((r) => r.width > 0);
          const width = rects.reduce((w, r) => w + r.width, 0);
          const lines = new Set(rects.map((r) => Math.round(r.top))).size;
          if (width > room + 1) found.push(`${name(box)}: "${m[0].slice(0, 40)}" is ${Math.round(width)} px wide in ${Math.round(room)}`);
          else if (isId && lines > 1) found.push(`${name(box)}: the id "${m[0].slice(0, 40)}" broken over ${lines} lines`);
        }
      }
    }
    for (const chart of Array.from(document.querySelectorAll('svg.chart'))) {
      const r = chart.getBoundingClientRect();
      const holder = chart.parentElement!;
      const h = holder.getBoundingClientRect();
      if (r.width === 0) continue;
      if (r.right > Math.min(h.right, window.innerWidth) + 1 || holder.scrollWidth > holder.clientWidth + 1) found.push(`${chart.getAttribute('aria-label')}: ${Math.round(r.width)} px wide in ${Math.round(h.width)}`);
    }
    return [...new Set(found)];
  });

/** Where a link of the page leads, as a file path (undefined: it leads out of the file system). */
const target = (page: Page, href: string): string => fileURLToPath(new URL(href, page.url()));

describe.skipIf(!hasChromium)('the pages on a phone and a wide screen (headless Chromium)', () => {
  beforeAll(async () => {
    // an answer of the sample dialogues asks for 2 s before the next turn: not waited for (no page shows the wait)
    const dialogues = ['-d', 'datasets/sample/conversations.jsonl', '-q', '--max-turn-delay', '0'];
    const withBaseline = async (): Promise<void> => {
      await cli(['run', ...dialogues, '-o', join(dir, 'base')]);
      await cli(['run', ...dialogues, '-o', join(dir, 'head'), '--baseline', join(dir, 'base'), '--min-accuracy', '0.5']);
    };
    const sameDay = async (): Promise<void> => {
      for (const k of [1, 2, 3]) await cli(['run', '-q', '-o', join(dir, `plain-${k}`)]);
      await cli(['trend', join(dir, 'plain-1'), join(dir, 'plain-2'), join(dir, 'plain-3'), '-o', join(dir, 'trend')]);
    };
    [browser] = await Promise.all([launchBrowser(), withBaseline(), sameDay()]);
    shared = await sharedPage(browser);
  }, 300_000);
  afterAll(async () => {
    await shared?.close();
    await browser?.close();
  });

  for (const [what, file] of Object.entries(PAGES)) {
    for (const [viewport, colorScheme] of SCREENS) {
      it(`${what} at ${viewport.width} px, ${colorScheme}: no sideways scroll, no crushed cell or id, charts inside their box`, async () => {
        const page = await shared.view(join(dir, file), { viewport, colorScheme });
        expect(await misfits(page)).toEqual([]);
        // what an editor acts on comes first: the verdict or the first figures on the first screen
        const first = (await page.locator('.verdict, .card').first().boundingBox())!;
        expect(first.y).toBeLessThan(viewport.height * 0.5);
        expect(shared.problems).toEqual([]);
      }, 60_000);
    }
  }

  it('report.html on a phone shows each question as a card: its outcome, expected and top-1 answer on the screen', async () => {
    const page = await shared.load(join(dir, 'plain-3/report.html'), { viewport: PHONE });
    await page.selectOption('#f-outcome', '');
    const cells = await page.locator('#q-body tr.row').first().locator('td.id, td.outcome .badge, td.question, td.expected, td.got .answer, td.score').evaluateAll((els) =>
      els.map((e) => {
        const r = e.getBoundingClientRect();
        return r.width > 0 && r.left >= 0 && r.right <= window.innerWidth;
      }));
    expect(cells).toEqual([true, true, true, true, true, true]);
    // the answer shown for a question opened on a phone: its ranked answers scroll in their own box if need be
    await page.locator('#q-body tr.row').first().click();
    expect(await page.locator('#q-body tr.detail .ranked-wrap').count()).toBe(1);
    expect(await misfits(page)).toEqual([]);
  });

  it('report.html of a run with a baseline links its compare.html; compare.html links both runs’ report.html', async () => {
    const page = await shared.view(join(dir, 'head/report.html'), { viewport: PHONE });
    const toCompare = page.locator('header a[href="compare.html"]');
    expect(await toCompare.count()).toBe(1);
    expect(target(page, (await toCompare.getAttribute('href'))!)).toBe(join(dir, 'head/compare.html'));

    const compare = await shared.view(join(dir, 'head/compare.html'), { viewport: PHONE });
    const links = await compare.locator('header a').evaluateAll((as) => as.map((a) => a.getAttribute('href')!));
    expect(links.map((href) => target(compare, href))).toEqual([join(dir, 'base/report.html'), join(dir, 'head/report.html')]);
    expect(links).toEqual(['../base/report.html', 'report.html']);

    // a report.html without a baseline has no such link
    const plain = await shared.view(join(dir, 'plain-1/report.html'), { viewport: PHONE });
    expect(await plain.locator('a[href="compare.html"]').count()).toBe(0);
  });

  it('trend.html links each run’s report.html, and tells same-day runs apart on its axes', async () => {
    const page = await shared.view(join(dir, 'trend/trend.html'), { viewport: WIDE });
    const links = await page.locator('#runs a').evaluateAll((as) => as.map((a) => a.getAttribute('href')!));
    expect(links.map((href) => target(page, href))).toEqual([1, 2, 3].map((k) => join(dir, `plain-${k}`, 'report.html')));
    for (const href of links) expect(existsSync(target(page, href))).toBe(true);
    const ticks = await page.locator('svg.chart').first().locator('g.axis').last().locator('text').allTextContents();
    const times = ticks.filter((t) => /^\d\d:\d\d(:\d\d)?$|^#\d+$/.test(t));
    expect(times.length).toBeGreaterThanOrEqual(2);
    expect(new Set(times).size).toBe(times.length);
    expect(ticks.filter((t) => /^\d{4}-\d\d-\d\d$/.test(t))).toHaveLength(1); // the day once
    expect(pathToFileURL(join(dir, 'trend/trend.html')).href).toBe(page.url());
  });
});
