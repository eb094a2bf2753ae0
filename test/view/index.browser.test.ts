import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderString } from '../../src/report/formats.js';
import { startViewer, type Viewer } from '../../src/view/server.js';
import { CHROMIUM, launchBrowser, sharedPage, type SharedPage } from '../helpers/browser.js';
import { HOSTILE, makeReport } from '../helpers/report-fixture.js';
import { tempDir } from '../helpers/tmp.js';

// The index of `answer-eval view` as a person reads it: at 1440 px and on a 390 px phone, light and dark; from it,
// every run's report.html opens and renders.

const hasChromium = existsSync(CHROMIUM);
const dir = tempDir('answer-eval-view-page-');
let browser: Browser;
let viewer: Viewer;
let shared: SharedPage;

function writeRun(name: string, startedAt: string, edit: (r: ReturnType<typeof makeReport>) => void = () => {}): void {
  const report = makeReport(40);
  report.run.startedAt = startedAt;
  edit(report);
  const path = join(dir, name);
  mkdirSync(path, { recursive: true });
  writeFileSync(join(path, 'report.json'), renderString('json', report));
  writeFileSync(join(path, 'report.html'), renderString('html', report));
}

beforeAll(async () => {
  if (!hasChromium) return;
  writeRun('nightly/2026-11-24', '2026-11-24T02:00:00.000Z');
  writeRun('nightly/2026-11-25', '2026-11-25T02:00:00.000Z', (r) => {
    r.gates = { passed: false, results: [{ gate: '--min-accuracy', metric: 'top1Accuracy', threshold: 0.99, value: 0.8, passed: false, message: 'top1Accuracy 0.800 < --min-accuracy 0.99' }] };
    r.run.status = 'partial';
  });
  writeRun('pull-requests/a-very-long-branch-name-that-a-phone-must-wrap-somewhere-1234', '2026-11-26T09:30:00.000Z', (r) => {
    r.run.dataset.path = `/home/ci/work/a/very/deep/checkout/datasets/${HOSTILE.img}-questions-with-a-long-name.csv`;
    r.run.agent = HOSTILE.quotes;
    r.run.baseUrl = 'https://answers.staging.example.test:8443';
  });
  mkdirSync(join(dir, 'trend'));
  writeFileSync(join(dir, 'trend', 'trend.html'), '<!doctype html><title>trend</title><body data-ready="true">trend');
  viewer = await startViewer({ root: dir, host: '127.0.0.1', port: 0, name: 'reports' });
  browser = await launchBrowser();
  shared = await sharedPage(browser, { ready: null });
}, 60_000);

afterAll(async () => {
  await shared?.close();
  await browser?.close();
  await viewer?.close();
});

describe.skipIf(!hasChromium)('the index of answer-eval view (headless Chromium)', () => {
  for (const [width, colorScheme] of [[1440, 'light'], [1440, 'dark'], [390, 'light'], [390, 'dark']] as const) {
    it(`at ${width} px, ${colorScheme}: every run, nothing wider than the screen, no request but the page, no console error`, async () => {
      const { problems, requests } = shared;
      const page = await shared.view(viewer.url, { viewport: { width, height: 900 }, colorScheme });
      expect(await page.locator('a.run').allTextContents()).toEqual(['pull-requests/a-very-long-branch-name-that-a-phone-must-wrap-somewhere-1234', 'nightly/2026-11-25', 'nightly/2026-11-24']);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      const cells = await page.locator('td').evaluateAll((tds) => tds.filter((td) => td.getBoundingClientRect().right > window.innerWidth + 1).length);
      expect(cells).toBe(0);
      await expect.poll(() => page.locator('.verdict.fail').textContent()).toBe('1 of 1 gate FAILED');
      expect(await page.locator('.mark.warn').textContent()).toBe('partial');
      // the background follows the colour scheme
      const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      expect(bg).toBe(colorScheme === 'dark' ? 'rgb(20, 23, 29)' : 'rgb(246, 247, 249)');
      expect(problems).toEqual([]);
      expect(requests).toEqual([viewer.url]);
      if (process.env['UPDATE_SCREENSHOTS'] === '1' && process.env['VIEW_FROM'] === undefined) {
        await page.screenshot({ path: join(dir, `view-${width}-${colorScheme}.png`), fullPage: true });
      }
    });
  }

  it('each run\'s report.html opens from the index and renders', async () => {
    const { problems } = shared;
    const page = await shared.load(viewer.url, { viewport: { width: 1440, height: 900 } });
    const hrefs = await page.locator('a.run').evaluateAll((links) => links.map((a) => (a as HTMLAnchorElement).href));
    expect(hrefs).toHaveLength(3);
    for (const href of hrefs) {
      await page.goto(href);
      await page.waitForSelector('body[data-ready="true"]', { timeout: 60_000 });
      expect(await page.title()).toMatch(/^answer-eval · /);
    }
    await page.goto(viewer.url);
    await page.getByRole('link', { name: 'trend/trend.html' }).click();
    await page.waitForSelector('body[data-ready="true"]');
    expect(problems).toEqual([]);
  }, 120_000);
});

/**
 * The screenshots of docs/ (docs/reports.md, "Viewing runs"): `UPDATE_SCREENSHOTS=1 VIEW_FROM=reports npx vitest run
 * test/view/index.browser.test.ts`, from a directory of real runs.
 */
describe.skipIf(!hasChromium || process.env['UPDATE_SCREENSHOTS'] !== '1' || process.env['VIEW_FROM'] === undefined)('docs/ screenshots', () => {
  it('shoots the index at 1440 px light and 390 px dark', async () => {
    const real = await startViewer({ root: process.env['VIEW_FROM']!, host: '127.0.0.1', port: 0, name: 'reports' });
    try {
      for (const [width, colorScheme] of [[1440, 'light'], [390, 'dark']] as const) {
        const context = await browser.newContext({ viewport: { width, height: 900 }, colorScheme });
        const page = await context.newPage();
        await page.goto(real.url);
        await page.screenshot({ path: join(process.cwd(), 'docs', `view-${width}-${colorScheme}.png`), fullPage: true });
        await context.close();
      }
    } finally {
      await real.close();
    }
  });
});
