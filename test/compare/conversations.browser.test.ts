import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareReports } from '../../src/compare/compare.js';
import { renderCompareHtml } from '../../src/compare/render/html/index.js';
import { listedChanges } from '../../src/compare/write.js';
import { CHROMIUM, launchBrowser, openPage, sharedPage, type SharedPage } from '../helpers/browser.js';
import { tempDir } from '../helpers/tmp.js';
import { conversationPair, FILES } from './fixtures.js';

// compare.html's conversations: the card, the broken and fixed ones with the turn that changed, those apart, hostile
// text as text, at 1440 and 390 px, light and dark, with JavaScript on and off.
const hasChromium = existsSync(CHROMIUM);
const { base, head, IMG } = conversationPair();
const c = compareReports(base, head, { files: FILES, resamples: 50 });
const dir = tempDir('answer-eval-compare-conv-');
const path = join(dir, 'compare.html');
writeFileSync(path, [...renderCompareHtml(c, listedChanges(c))].join(''));
let browser: Browser;
let shared: SharedPage;

describe.skipIf(!hasChromium)('compare.html: broken and fixed conversations (headless Chromium)', () => {
  beforeAll(async () => {
    browser = await launchBrowser();
    shared = await sharedPage(browser);
  }, 60_000);
  afterAll(async () => {
    await shared?.close();
    await browser?.close();
  });

  it('lists the broken conversations at the turn that changed, then the fixed, added, removed and changed ones; the data as text', async () => {
    const { problems, requests } = shared;
    const page = await shared.load(path, { viewport: { width: 1440, height: 900 } });
    const tables = page.locator('#conversations ~ .panel table.conv');
    expect(await tables.nth(0).locator('caption').textContent()).toBe('Broken: passed, now failed or in error (3)');
    const broken = tables.nth(0).locator('tbody tr');
    expect(await broken.locator('td.id').evaluateAll((tds) => tds.map((td) => td.firstChild!.textContent))).toEqual(['breaks', 'errs', `x ${IMG}`]);
    expect(await broken.nth(0).locator('td').nth(2).innerText()).toBe('turn 2: correct → wrong\nbreaks turn 2');
    expect(await broken.nth(1).locator('td').nth(1).innerText()).toBe('passed → error at turn 1');
    expect(await tables.nth(1).locator('caption').textContent()).toBe('Fixed: failed or in error, now passed (1)');
    expect(await page.locator('details.conv-apart summary').allTextContents()).toEqual([
      'Added conversations (1)', 'Removed conversations (1)', 'Changed conversations (a turn edited, added or removed): not compared (2)',
    ]);
    expect(await page.locator('main img').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
    // the card leads to them
    await page.locator('.card a[href="#conversations"]').click();
    expect(await page.evaluate(() => location.hash)).toBe('#conversations');
    expect(problems).toEqual([]);
    expect(requests.filter((u) => !u.startsWith('file://'))).toEqual([]);
  });

  for (const colorScheme of ['light', 'dark'] as const) {
    it(`fits 390 px (${colorScheme}): the tables turn into cards, nothing scrolls sideways, badges in their colours`, async () => {
      const { problems } = shared;
      const page = await shared.view(path, { viewport: { width: 390, height: 844 }, colorScheme });
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
      const wide = await page.locator('#conversations ~ .panel table.conv td').evaluateAll((tds) => tds.filter((td) => td.getBoundingClientRect().right > window.innerWidth).length);
      expect(wide).toBe(0);
      const label = await page.locator('#conversations ~ .panel table.conv td[data-label]').first().evaluate((td) => getComputedStyle(td, '::before').content);
      expect(label).toBe('"conversation: "');
      const colours = await page.locator('#conversations ~ .panel table.conv .badge.v-passed, #conversations ~ .panel table.conv .badge.v-failed, #conversations ~ .panel table.conv .badge.v-error')
        .evaluateAll((els) => new Set(els.map((e) => getComputedStyle(e).backgroundColor)).size);
      expect(colours).toBe(3);
      expect(problems).toEqual([]);
    });
  }

  it('shows the conversations with JavaScript off', async () => {
    const { page, close } = await openPage(browser, path, { javaScriptEnabled: false });
    try {
      expect(await page.locator('#conversations ~ .panel table.conv tbody tr').count()).toBe(4);
    } finally {
      await close();
    }
  });
});
