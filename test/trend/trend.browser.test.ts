import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTrend } from '../../src/trend/build.js';
import { findRuns } from '../../src/trend/discover.js';
import { renderTrendHtml } from '../../src/trend/render/html.js';
import { CHROMIUM, launchBrowser, openPage } from '../helpers/browser.js';
import { tempDir } from '../helpers/tmp.js';
import { writeFixtureRuns } from './fixture.js';

const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) console.warn(`trend.html browser tests skipped: no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`);

const dir = tempDir('answer-eval-trend-html-');
let browser: Browser;

describe.skipIf(!hasChromium)('trend.html in headless Chromium', () => {
  beforeAll(async () => {
    browser = await launchBrowser();
  }, 60_000);
  afterAll(() => browser?.close());

  it('shows its charts with intervals and change marks, makes no request, logs no error, runs no injected script, and filters', async () => {
    writeFixtureRuns(join(dir, 'runs'), 12);
    const trend = await buildTrend(await findRuns([join(dir, 'runs')]), { gates: { maxFlaky: 0 } });
    expect(trend.failing.length).toBeGreaterThan(10);
    const path = join(dir, 'trend.html');
    writeFileSync(path, [...renderTrendHtml(trend)].join(''));

    const { page, problems, requests, close } = await openPage(browser, path);
    try {
      expect(await page.locator('svg.chart').count()).toBe(5);
      expect(await page.locator('svg.chart polygon.band').count()).toBe(4); // every share has its interval; latency has none
      expect(await page.locator('svg.chart circle.dot').count()).toBe(5 * 12);
      expect(await page.locator('svg.chart g.change').count()).toBe(5); // the service moved once, marked on every chart
      expect(await page.locator('.verdict.fail li.fail code').allTextContents()).toEqual(['--max-flaky']);
      expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
      expect(await page.locator('script').count()).toBe(1);

      const rows = page.locator('#failing tbody tr');
      const all = await rows.count();
      const id = trend.failing[0]!.id;
      await page.fill('input[data-table="failing"]', id);
      const shown = await page.locator('#failing tbody tr:visible').count();
      expect(shown).toBeGreaterThan(0);
      expect(shown).toBeLessThan(all);
      expect(problems).toEqual([]);
      expect(requests).toEqual([pathToFileURL(path).href]);
    } finally {
      await close();
    }
  }, 60_000);
});
