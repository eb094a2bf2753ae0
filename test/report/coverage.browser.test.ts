import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE_KB, SAMPLE_QUESTIONS } from '../../src/engine/index.js';
import { ReportSchema, type Report } from '../../src/model/report.js';
import { CHROMIUM, launchBrowser, sharedPage, type SharedPage } from '../helpers/browser.js';
import { runCli } from '../helpers/cli.js';
import { tempDir, writeTemp } from '../helpers/tmp.js';

// Issue 38, point 3, in the browser: the sample question set without the questions of entries 30-33, run against a
// copy of the sample knowledge base whose entry 31 has a hostile label and title. report.html lists the untested
// entries in its Coverage section (and the figure in its headline), compare.html the entries that lost their last
// test; the knowledge base's strings are shown as text, never run.

const hasChromium = existsSync(CHROMIUM);
const dir = tempDir('answer-eval-coverage-page-');
const HOSTILE_LABEL = '<img src=x onerror="window.__xss=1">';
const HOSTILE_TITLE = '<script>window.__xss=1</script> & "meters"';
const REMOVED = new Set(['submit_reading', 'read_meter', 'smart_meter', 'meter_faulty']);

const kb = writeTemp(dir, 'kb.jsonl', `${readFileSync(SAMPLE_KB, 'utf8').trimEnd().split('\n').map((line) => {
  const entry = JSON.parse(line) as { sequence_number: number };
  return entry.sequence_number === 31 ? JSON.stringify({ ...entry, label: HOSTILE_LABEL, theme: HOSTILE_TITLE }) : line;
}).join('\n')}\n`);
const dataset = writeTemp(dir, 'questions.csv', `${readFileSync(SAMPLE_QUESTIONS, 'utf8').trimEnd().split('\n').filter((l) => !l.split(',').some((c) => REMOVED.has(c))).join('\n')}\n`);

let browser: Browser;
/** The file's pages, with JavaScript on and off (the tests only read them). */
const pages: Partial<Record<'on' | 'off', SharedPage>> = {};
let report: Report;

describe.skipIf(!hasChromium)('report.html and compare.html: the knowledge base\'s coverage', () => {
  beforeAll(async () => {
    const main = await runCli(['run', '-o', join(dir, 'main'), '--format', 'json', '-q']);
    expect([main.code, main.stderr]).toEqual([0, '']);
    const pr = await runCli(['run', '-d', dataset, '--kb', kb, '--baseline', join(dir, 'main'), '-o', join(dir, 'pr'), '--format', 'json,html', '-q']);
    expect([pr.code, pr.stderr]).toEqual([0, '']);
    report = ReportSchema.parse(JSON.parse(readFileSync(join(dir, 'pr', 'report.json'), 'utf8')));
    browser = await launchBrowser();
    [pages.on, pages.off] = await Promise.all([sharedPage(browser), sharedPage(browser, { javaScriptEnabled: false })]);
  }, 120_000);
  afterAll(async () => {
    await Promise.all([pages.on?.close(), pages.off?.close()]);
    await browser?.close();
  });

  for (const javaScriptEnabled of [true, false]) {
    it(`report.html shows the figure in its headline and lists the untested entries, as text (JavaScript ${javaScriptEnabled ? 'on' : 'off'})`, async () => {
      const c = report.coverage!;
      expect(c.untested.map((e) => e.sequence)).toEqual(expect.arrayContaining([30, 31, 32, 33]));
      const opened = pages[javaScriptEnabled ? 'on' : 'off']!;
      const { problems, requests } = opened;
      const page = await opened.view(join(dir, 'pr', 'report.html'));
      const pct = `${(c.share! * 100).toFixed(1)}%`;
      const card = page.locator('.card.figure:has(h3:text-is("KB coverage"))');
      expect(await card.locator('.big').textContent()).toBe(pct);
      expect(await card.locator('.over a').getAttribute('href')).toBe('#coverage');
      expect(await page.locator('nav.toc a[href="#coverage"]').textContent()).toBe(`Coverage (${c.untested.length} untested)`);

      const rows = page.locator('#coverage-untested tbody tr');
      expect(await rows.count()).toBe(c.untested.length);
      const cells = await rows.evaluateAll((trs) => trs.map((tr) => Array.from(tr.querySelectorAll('td')).slice(0, 3).map((td) => td.textContent)));
      expect(cells.slice(0, 4)).toEqual([
        ['30', 'submit_reading', 'Meter readings'],
        ['31', HOSTILE_LABEL, HOSTILE_TITLE],
        ['32', 'smart_meter', 'Smart meters'],
        ['33', 'meter_faulty', 'Faulty meters'],
      ]);
      expect(await page.locator('#coverage img, #coverage script').count()).toBe(0);
      expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
      expect(await page.locator('#coverage-untested-head').textContent()).toBe(
        `Untested entries · ${c.untested.length}: no answerable question expects them: they can break unnoticed. 21 of them are reachable only inside a dialogue: a conversation's turn tests them.`,
      );
      expect(problems).toEqual([]);
      expect(requests.filter((u) => !u.startsWith('file:'))).toEqual([]);
    });
  }

  it('compare.html says which entries lost their last test', async () => {
    const { problems } = pages.on!;
    const page = await pages.on!.view(join(dir, 'pr', 'compare.html'));
    const rows = await page.locator('#kb-lostLastTest tbody tr').evaluateAll((trs) => trs.map((tr) => Array.from(tr.querySelectorAll('td')).map((td) => td.textContent)));
    expect(rows).toEqual([
      ['30', 'submit_reading', 'Meter readings'],
      ['31', HOSTILE_LABEL, HOSTILE_TITLE],
      ['32', 'smart_meter', 'Smart meters'],
      ['33', 'meter_faulty', 'Faulty meters'],
    ]);
    expect(await page.locator('.card:has(h3:text-is("KB coverage")) .big').textContent()).toBe('4 lost their last test');
    expect(await page.locator('#kb-newlyTested').textContent()).toBe('Newly tested: none.');
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
    expect(problems).toEqual([]);
  });
});
