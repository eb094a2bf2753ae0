import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReportSchema, type Report } from '../../src/model/report.js';
import { CHROMIUM, launchBrowser, openPage } from '../helpers/browser.js';
import { runCli } from '../helpers/cli.js';
import { tempDir, writeTemp } from '../helpers/tmp.js';

// report.html's two figures about out-of-scope questions answered anyway (the outcome card's "fallback missed" and
// the entries view's list of who answered them) are one count over one population, the one the headline's
// out-of-scope recall and --max-fallback-missed-rate use, even past the 50 entries report.json keeps.

const hasChromium = existsSync(CHROMIUM);
const dir = tempDir('answer-eval-fallback-');
let browser: Browser;
let report: Report;
const html = join(dir, 'out', 'report.html');

describe.skipIf(!hasChromium)('report.html: out-of-scope questions answered anyway', () => {
  beforeAll(async () => {
    // every knowledge-base entry's first example, marked out of scope: with no floor, most get their entry's answer
    const kb = readFileSync(new URL('../../datasets/sample/kb.jsonl', import.meta.url), 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as { examples?: string[]; language?: string });
    const rows = kb.flatMap((e, i) => (e.examples?.length ? [`o${i},${JSON.stringify(e.examples[0])},fallback,${e.language ?? 'en'}`] : []));
    const dataset = writeTemp(dir, 'oos.csv', `id,question,expect,language\n${rows.join('\n')}\n`);
    const res = await runCli(['run', '-d', dataset, '--floor', '0', '-o', join(dir, 'out'), '--format', 'json,html,md']);
    expect(res.code, res.stderr).toBe(0);
    report = ReportSchema.parse(JSON.parse(readFileSync(join(dir, 'out', 'report.json'), 'utf8')));
    browser = await launchBrowser();
  }, 120_000);
  afterAll(() => browser?.close());

  it('summary.md gives the same count and rate, its five rows and the rest adding up to it', () => {
    const missed = report.summary.outcomes.fallback_missed;
    const outOfScope = missed + report.summary.outcomes.fallback_ok;
    const md = readFileSync(join(dir, 'out', 'summary.md'), 'utf8');
    expect(md).toContain(`**Out-of-scope questions answered anyway** (fallback missed): ${missed} of ${outOfScope} out-of-scope questions (fallback missed rate ${((missed / outOfScope) * 100).toFixed(1)}%)`);
    const table = md.split('| answered by | count | e.g. |')[1]!.split('\n\n')[0]!.trim().split('\n').slice(1);
    expect(table).toHaveLength(6);
    expect(table.at(-1)).toMatch(/^\| … other entries \| \d+ \| \|$/);
    expect(table.reduce((n, row) => n + Number(row.split(' | ')[1]), 0)).toBe(missed);
  });

  it('the outcome card and the list give the same count, over the out-of-scope questions, and the rows add up to it', async () => {
    const missed = report.summary.outcomes.fallback_missed;
    const outOfScope = missed + report.summary.outcomes.fallback_ok;
    // more entries answered than report.json keeps: the kept ones do not add up to the count on their own
    expect(report.metrics!.outOfScopeMisses).toHaveLength(50);
    expect(report.metrics!.outOfScopeMisses.reduce((n, c) => n + c.count, 0)).toBeLessThan(missed);

    const { page, problems, close } = await openPage(browser, html);
    try {
      expect(await page.locator('.outcome-card li:has(.badge.o-fallback_missed) b').textContent()).toBe(String(missed));
      expect(await page.locator('.card.figure:has(h3:text-is("out-of-scope recall")) .over').textContent()).toBe(`over ${outOfScope} out-of-scope questions`);
      const table = page.locator('table.out-of-scope');
      const rate = `${((missed / outOfScope) * 100).toFixed(1)}%`;
      expect(await table.locator('caption').textContent()).toBe(`Out-of-scope questions answered anyway (fallback missed): ${missed} of ${outOfScope} out-of-scope questions (fallback missed rate ${rate}), by the entry that answered`);
      const counts = (await table.locator('tbody td.num').allTextContents()).map(Number);
      expect(counts).toHaveLength(15);
      const more = await table.locator('tbody tr:last-child td.hint').textContent();
      const rest = Number(/… (\d+) more, answered by entries not listed/.exec(more ?? '')?.[1]);
      expect(counts.reduce((a, b) => a + b, 0) + rest).toBe(missed);
      // the link opens every one of them in the question table
      await table.locator(`a.goto:text-is("every one of the ${missed}")`).click();
      await expect.poll(() => page.locator('#table-status').textContent()).toContain(`of ${missed} questions`);
      expect(new Set(await page.locator('#q-body tr.row .badge').allTextContents())).toEqual(new Set(['fallback missed']));
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });
});
