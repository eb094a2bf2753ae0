import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QuestionResult } from '../../src/model/report.js';
import { renderString } from '../../src/report/formats.js';
import { CHROMIUM, launchBrowser, openPage, sharedPage, type Screen, type SharedPage } from '../helpers/browser.js';
import { conversationReport, conversationResults, HOSTILE } from '../helpers/conversation-report.js';
import { tempDir } from '../helpers/tmp.js';

// report.html's conversations as threads (issue 15): what a thread shows, the filters, paging, hostile text, the
// way to a turn in the question table, 390 px light and dark, and JavaScript off.
const hasChromium = existsSync(CHROMIUM);
const dir = tempDir('answer-eval-threads-');
let browser: Browser;
let shared: SharedPage;

const write = (name: string, html: string): string => {
  const path = join(dir, name);
  writeFileSync(path, html);
  return path;
};

const threadIds = (page: Page) => page.locator('#c-threads details.thread .thread-id').allTextContents();
const status = (page: Page) => page.locator('#c-status').textContent();
const hostileId = `hostile ${HOSTILE}`;

/** Opens `path` afresh in the file's one page (test/helpers/browser.ts sharedPage). */
const load = async (path: string, screen: Screen = {}) => {
  await shared.load(path, screen);
  return shared;
};

/** conversationResults with `n` more passing conversations: copies of `move` under other ids. */
function withMore(n: number): QuestionResult[] {
  const results = conversationResults();
  const move = results.filter((r) => r.conversation?.id === 'move');
  const more = Array.from({ length: n }, (_, k) => move.map((r) => ({ ...r, id: `more-${k + 1}#${r.conversation!.turn}`, conversation: { ...r.conversation!, id: `more-${k + 1}` } })));
  return [...results, ...more.flat()];
}

describe.skipIf(!hasChromium)('report.html: conversations as threads (headless Chromium)', () => {
  let path: string;
  beforeAll(async () => {
    browser = await launchBrowser();
    shared = await sharedPage(browser);
    path = write('threads.html', renderString('html', conversationReport()));
  }, 60_000);
  afterAll(async () => {
    await shared?.close();
    await browser?.close();
  });

  it('shows every conversation as a thread, failing ones first and open, each turn with question, top-1, expected and checks', async () => {
    const { page, problems, requests } = await load(path, { viewport: { width: 1440, height: 900 } });
    expect(await page.locator('nav.toc a[href="#conversations"]').textContent()).toBe('Conversations (3 failing)');
    expect(await threadIds(page)).toEqual(['meter', hostileId, 'outage', 'move', 'trasloco']);
    expect(await status(page)).toBe('1–5 of 5 conversations, failing first · page 1 of 1');
    const open = await page.locator('#c-threads details.thread').evaluateAll((ds) => ds.map((d) => (d as HTMLDetailsElement).open));
    expect(open).toEqual([true, true, true, false, false]);

    const meter = page.locator('#c-threads details.thread').first();
    expect(await meter.locator('summary .badge').textContent()).toBe('failed');
    expect(await meter.locator('.thread-why').textContent()).toBe(
      'failed at turn 2 of 2: wrong: expected label "meter_reading_value"; top-1 is #201 "meter_reading_number" (score 47.7); and expected dialog none; the reply leaves it in_progress',
    );
    const turns = meter.locator('li.turn');
    expect(await turns.count()).toBe(2);
    const second = turns.nth(1);
    expect(await second.getAttribute('class')).toBe('turn decides');
    expect(await second.locator('.turn-head .badge').textContent()).toBe('wrong');
    expect(await second.locator('.bubble.user .text').textContent()).toBe('it says 07321');
    expect(await second.locator('.bubble.reply .label').textContent()).toBe('meter_reading_number');
    expect(await second.locator('.bubble.reply .text').textContent()).toBe('Answer of meter_reading_number.');
    expect(await second.locator('.turn-facts').textContent()).toContain('expectedlabel meter_reading_value; dialog none');
    expect(await second.locator('ul.checks li.fail').textContent()).toBe('✗dialog: nonegot in_progress');
    expect(await turns.nth(0).locator('ul.checks li.pass').textContent()).toBe('✓dialog: in_progressgot in_progress');

    // a conversation that ended in error: the error at its turn, the rest not asked
    const outage = page.locator('#c-threads details.thread').nth(2);
    expect(await outage.locator('summary .badge').textContent()).toBe('error');
    expect(await outage.locator('li.turn').nth(1).locator('.bubble.reply').textContent()).toBe('http: HTTP 503 from http://127.0.0.1:1/api/v1/answer');
    expect(await outage.locator('li.turn').nth(2).locator('.turn-head .badge').textContent()).toBe('skipped');
    expect(await outage.locator('li.turn').nth(2).locator('.bubble.reply').textContent()).toBe('not asked');

    // a passing one opens on a click
    const move = page.locator('#c-threads details.thread').nth(3);
    expect(await move.locator('.thread-why').textContent()).toBe('every turn passed (3 turns)');
    await move.locator('summary').click();
    expect(await move.locator('li.turn').count()).toBe(3);
    expect(problems).toEqual([]);
    expect(requests.filter((u) => !u.startsWith('file://'))).toEqual([]);
  });

  it('shows a hostile id, question and answer as text', async () => {
    const { page } = await load(path);
    const thread = page.locator('#c-threads details.thread').nth(1);
    expect(await thread.locator('.thread-id').textContent()).toBe(hostileId);
    expect(await thread.locator('.bubble.user .text').textContent()).toBe(`where is my number? ${HOSTILE}`);
    expect(await thread.locator('.bubble.reply .text').textContent()).toBe(`Your number ${HOSTILE} is on the bill.`);
    expect(await thread.locator('ul.checks li.fail').textContent()).toBe('✗post-processed answer: contains:already answergot none');
    expect(await page.locator('#conversations img, #questions img').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
    await page.fill('#c-search', 'onerror');
    await expect.poll(() => threadIds(page)).toEqual([hostileId]);
  });

  it('filters by verdict, a turn’s outcome, category, language, tag and text; links lead to a turn and to the failing conversations', async () => {
    const { page, problems } = await load(path);
    await page.selectOption('#c-verdict', 'passed');
    expect(await threadIds(page)).toEqual(['move', 'trasloco']);
    expect(await status(page)).toBe('1–2 of 2 conversations (filtered from 5), failing first · page 1 of 1');
    await page.selectOption('#c-verdict', 'failing');
    expect(await threadIds(page)).toEqual(['meter', hostileId, 'outage']);
    await page.selectOption('#c-verdict', '');
    // one filter at a time, cleared after
    const single: [filter: string, value: string, ids: string[]][] = [
      ['#c-outcome', 'check_failed', [hostileId]],
      ['#c-outcome', 'skipped', ['outage']],
      ['#c-language', 'it', ['trasloco']],
      ['#c-tag', 'moving', ['trasloco']],
      ['#c-category', 'moving', ['move']],
    ];
    for (const [filter, value, ids] of single) {
      await page.selectOption(filter, value);
      expect(await threadIds(page)).toEqual(ids);
      await page.selectOption(filter, '');
    }
    await page.fill('#c-search', 'power cut');
    await expect.poll(() => threadIds(page)).toEqual(['outage']);
    await page.fill('#c-search', 'maria.rossi');
    await expect.poll(() => threadIds(page)).toEqual(['trasloco']);
    await page.fill('#c-search', 'nothing says this');
    await expect.poll(() => status(page)).toBe('No conversation matches these filters.');
    await page.fill('#c-search', '');
    await expect.poll(() => threadIds(page)).toHaveLength(5);

    // a turn in the question table, with its place in its conversation
    await page.locator('#c-threads details.thread').first().locator('li.turn').nth(1).locator('a.goto').click();
    expect(await page.locator('#table-status').textContent()).toContain('1–1 of 1 questions');
    expect(await page.locator('#q-body tr.detail').textContent()).toContain('conversationmeter, turn 2 of 2 (failed at turn 2) · user answer-eval-0a1b2c3d-meter');

    // the overview's card opens the failing conversations
    await page.selectOption('#c-verdict', 'passed');
    await page.locator('#overview a.to-threads').click();
    expect(await page.locator('#c-verdict').inputValue()).toBe('failing');
    expect(await threadIds(page)).toEqual(['meter', hostileId, 'outage']);
    expect(problems).toEqual([]);
  });

  it('pages through thousands of conversations, failing ones on the first page', async () => {
    const big = write('threads-many.html', renderString('html', conversationReport(withMore(2_000))));
    const { page, problems } = await load(big);
    expect(await status(page)).toBe('1–10 of 2005 conversations, failing first · page 1 of 201');
    expect((await threadIds(page)).slice(0, 4)).toEqual(['meter', hostileId, 'outage', 'move']);
    expect(await page.locator('#c-threads details.thread').count()).toBe(10);
    await page.click('#c-next');
    expect(await status(page)).toBe('11–20 of 2005 conversations, failing first · page 2 of 201');
    expect(await threadIds(page)).toEqual(Array.from({ length: 10 }, (_, k) => `more-${k + 6}`));
    await page.selectOption('#c-size', '50');
    expect(await page.locator('#c-threads details.thread').count()).toBe(50);
    expect(await page.locator('#c-prev').isDisabled()).toBe(true);
    expect(problems).toEqual([]);
  });

  for (const colorScheme of ['light', 'dark'] as const) {
    it(`fits 390 px (${colorScheme}): no sideways scrolling, every thread inside the page, badges readable`, async () => {
      const { page, problems } = await load(path, { viewport: { width: 390, height: 844 }, colorScheme });
      await page.locator('#c-threads details.thread').nth(3).locator('summary').click();
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
      const outside = await page.locator('#conversations .thread, #conversations .bubble, #conversations .turn-facts, #c-controls > *').evaluateAll((els) =>
        els.filter((e) => { const r = e.getBoundingClientRect(); return r.width > 0 && (r.left < 0 || r.right > window.innerWidth); }).map((e) => e.className || e.id));
      expect(outside).toEqual([]);
      // text stays inside its bubble (long words wrap)
      const wider = await page.locator('#conversations .bubble .text').evaluateAll((els) => els.filter((e) => e.scrollWidth > e.clientWidth + 1).length);
      expect(wider).toBe(0);
      const colours = await page.locator('#c-threads summary .badge').evaluateAll((els) => els.map((e) => getComputedStyle(e).backgroundColor));
      expect(new Set(colours).size).toBe(3); // passed, failed and error each their own colour
      expect(problems).toEqual([]);
    });
  }

  it('with JavaScript off, lists the failing conversations at their deciding turn, as text', async () => {
    const { page, close } = await openPage(browser, path, { javaScriptEnabled: false });
    try {
      const rows = page.locator('#conversations noscript table tbody tr, #conversations table.qt tbody tr');
      expect(await rows.count()).toBe(3);
      expect(await rows.nth(1).locator('td').first().textContent()).toBe(hostileId);
      expect(await page.locator('#conversations img').count()).toBe(0);
      expect(await page.locator('#conversations .cards .big').first().textContent()).toBe('50.0%');
    } finally {
      await close();
    }
  });
});
