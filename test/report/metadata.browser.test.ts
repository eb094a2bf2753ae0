import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, launchBrowser, openPage } from '../helpers/browser.js';
import { runCli } from '../helpers/cli.js';
import { tempDir, writeTemp } from '../helpers/tmp.js';

const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) console.warn(`report.html metadata browser test skipped: no Chromium at ${CHROMIUM}`);

// The question set's own columns (notes, owner) show in a question's detail view of report.html and are searched.
const dir = tempDir('answer-eval-meta-html-');
const hostile = '<img src=x onerror=window.__xss=1>';
let browser: Browser;

describe.skipIf(!hasChromium)("report.html: a question's metadata", () => {
  beforeAll(async () => {
    browser = await launchBrowser();
  }, 60_000);
  afterAll(() => browser?.close());

  it('is in the detail view, as text, and the search finds a question by it', async () => {
    const dataset = writeTemp(dir, 'q.csv', `id,question,expected_label,notes,owner\nq1,hello there,greeting,"ask Ann first ${hostile}",ann\nq2,how can I pay my bill?,payment_methods,,bob\n`);
    const out = join(dir, 'run');
    expect((await runCli(['run', '-d', dataset, '-o', out, '--quiet', '--format', 'html'])).code).toBe(0);
    const { page, problems, close } = await openPage(browser, join(out, 'report.html'));
    try {
      await page.fill('#f-search', 'ask ann first');
      await expect.poll(() => page.locator('#q-body tr.row').count()).toBe(1);
      await page.locator('#q-body tr.row').first().click();
      const facts = page.locator('#q-body tr.detail .facts > div');
      await expect.poll(() => facts.count()).toBeGreaterThan(0);
      const pairs = await facts.evaluateAll((divs) => divs.map((d) => [d.querySelector('.k')?.textContent, d.querySelector('.v')?.textContent]));
      expect(pairs).toContainEqual(['notes', `ask Ann first ${hostile}`]);
      expect(pairs).toContainEqual(['owner', 'ann']);
      await page.fill('#f-search', 'bob');
      await expect.poll(() => page.locator('#q-body tr.row td.id').allTextContents()).toEqual(['q2']);
      expect(await page.locator('#q-body img').count()).toBe(0);
      expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });
});
