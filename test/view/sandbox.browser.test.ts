import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderString } from '../../src/report/formats.js';
import { startViewer, type Viewer } from '../../src/view/server.js';
import { CHROMIUM, launchBrowser, sharedPage, type SharedPage } from '../helpers/browser.js';
import { makeReport } from '../helpers/report-fixture.js';
import { tempDir } from '../helpers/tmp.js';

// A hostile page placed in the reports directory runs in a sandbox: it cannot read another run's files with the
// viewer's origin. The pages answer-eval writes still work there (their script runs; they need nothing else).

const hasChromium = existsSync(CHROMIUM);
const dir = tempDir('answer-eval-view-sandbox-');
let browser: Browser;
let viewer: Viewer;
let shared: SharedPage;

// tries every way a page of the viewer's origin could read another run's results.csv, and says what it got
const HOSTILE_PAGE = `<!doctype html><html><head><title>waiting</title></head><body><h1>planted</h1><iframe id="f" src="/a/results.csv"></iframe><script>
const say = (t) => { document.title = t; document.body.dataset.done = 'true'; };
fetch('/a/results.csv').then((r) => r.text()).then((t) => say('read: ' + t), () => {
  let framed = 'none';
  try { framed = document.getElementById('f').contentDocument.body.innerText; } catch (e) { framed = 'blocked'; }
  say('blocked; frame: ' + framed);
});
</script></body></html>`;

beforeAll(async () => {
  if (!hasChromium) return;
  const report = makeReport(30);
  mkdirSync(join(dir, 'a'), { recursive: true });
  writeFileSync(join(dir, 'a', 'report.html'), renderString('html', report));
  writeFileSync(join(dir, 'a', 'results.csv'), 'id,question\nq1,the secret question of run a\n');
  mkdirSync(join(dir, 'planted'));
  writeFileSync(join(dir, 'planted', 'report.html'), HOSTILE_PAGE);
  viewer = await startViewer({ root: dir, host: '127.0.0.1', port: 0 });
  browser = await launchBrowser();
  shared = await sharedPage(browser, { ready: null });
}, 60_000);

afterAll(async () => {
  await shared?.close();
  await browser?.close();
  await viewer?.close();
});

describe.skipIf(!hasChromium)('pages served by view run in a sandbox', () => {
  it("a planted page's script runs, but cannot read another run's results.csv, by fetch or by a frame", async () => {
    const page = await shared.load(new URL('planted/report.html', viewer.url).href);
    await page.waitForSelector('body[data-done="true"]', { timeout: 10_000 });
    const title = await page.title();
    expect(title).toMatch(/^blocked; frame: (blocked|none)$/);
    expect(title).not.toContain('secret question');
  });

  it('the report.html answer-eval wrote still works: its script draws the page, without an error', async () => {
    const page = await shared.load(new URL('a/report.html', viewer.url).href);
    await page.waitForSelector('body[data-ready="true"]', { timeout: 20_000 });
    expect(await page.locator('#questions tbody tr, table tbody tr').count()).toBeGreaterThan(0);
    expect(shared.problems).toEqual([]);
  });
});
