import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLabelServer, type LabelServer } from '../../src/label/server.js';
import { rateText } from '../../src/pages/label/view.js';
import type { Rate } from '../../src/pages/label/data.js';
import { CHROMIUM, launchBrowser } from '../helpers/browser.js';
import { runCli } from '../helpers/cli.js';
import { startLoopback, type Loopback } from '../helpers/loopback.js';
import { openModules } from '../helpers/page-modules.js';
import { tempDir } from '../helpers/tmp.js';
import { KB, makeRun } from './fixture.js';

// Labeling as an editor does it, in Chromium: the keyboard only; the set on disk holds exactly those labels; a set
// edited on disk meanwhile is refused and the page says so; undo works after a restart; the figures are rescore's;
// a page of another site cannot write, even knowing the token.

const hasChromium = existsSync(CHROMIUM);
const dir = tempDir('answer-eval-label-page-');
let run: string;
let set: string;
let server: LabelServer;
let browser: Browser;
let page: Page;
const problems: string[] = [];

const sha = (): string => createHash('sha256').update(readFileSync(set)).digest('hex');

/** Opens the label page at `url` afresh, in the file's one page. */
async function openPage(url: string): Promise<void> {
  await page.goto(url);
  await page.waitForSelector('body[data-ready="true"]');
}

/** Waits until every write the page sent is answered. */
const settled = (): Promise<unknown> => page.waitForSelector('body[data-pending="0"]');

beforeAll(async () => {
  if (!hasChromium) return;
  ({ run, set } = await makeRun(dir));
  server = await startLabelServer({ run, kb: KB, host: '127.0.0.1', port: 0 });
  browser = await launchBrowser();
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('console', (m) => void (m.type() === 'error' && !m.text().includes('409') ? problems.push(m.text()) : undefined));
}, 60_000);

afterAll(async () => {
  await page?.close();
  await browser?.close();
  await server?.close();
});

describe.skipIf(!hasChromium)('the label page', () => {
  it('labels with the keyboard: the next question at once, each decision in the set, every other byte unchanged', async () => {
    await openPage(server.url);
    expect(await page.textContent('#question')).toBe('can i pay in installments');
    expect(await page.textContent('#todo')).toBe('7');
    // the next question shows while the first write is still on its way
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/decide', async (route) => {
      await held;
      await route.continue();
    });
    await page.keyboard.press('1');
    await page.waitForSelector('#card[data-id="q1"]');
    expect(await page.textContent('#question')).toBe('how can I pay my bill?');
    expect(await page.getAttribute('body', 'data-pending')).toBe('1');
    release();
    await settled();
    await page.unroute('**/api/decide');

    await page.keyboard.press('r'); // q1 should be refused
    await page.keyboard.press('s'); // q8 skipped
    await page.waitForSelector('#card[data-id="q3"]');
    await page.keyboard.press('2'); // q3: rank 2, cancel_contract (70)
    await page.waitForSelector('#card[data-id="q5"]');
    await page.keyboard.press('/'); // q5: found in the knowledge base
    await page.keyboard.type('submit reading');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#card[data-id="q4"]');
    await page.keyboard.press('1'); // q4 has only the floor answer: no pick
    await page.keyboard.press('r');
    await page.waitForSelector('#card[data-id="q7"]');
    await settled();

    // the labels in their cells, the expect column added (the header and each row's end), nothing else
    const expected = [
      'id,question,expected_sequence,notes,count,conversation,turn,expect',
      'q1,how can I pay my bill?,,,2,,,fallback',
      'q2,hello there,1,,,,,',
      'q3,I want a refund,70,"a note, with a comma",,,,',
      'q4,when will my refund arrive,,,,,,fallback',
      'q5,my meter reading is wrong,30,,,,,',
      'q6,can i pay in installments,23,,9,,,',
      'q7,what is the capital of mars,,,,,,',
      'q8,"how do I report a power cut, please",,"say ""hi""",,,,',
      ',hello,,,,conv,1,',
      ',how can I pay my bill?,,,,conv,2,',
      '',
    ].join('\n');
    expect(readFileSync(set, 'utf8')).toBe(expected);
    expect(await page.textContent('#labeled')).toBe('5');
    expect(await page.textContent('#todo')).toBe('2 (1 skipped)');
    expect(problems).toEqual([]);
  });

  it("shows rescore's figures for the labels so far: the same as answer-eval rescore RUN -d SET", async () => {
    await page.waitForSelector(`#figures[data-revision="${sha()}"]`);
    const out = join(dir, 'rescored');
    const rescored = await runCli(['rescore', run, '-d', set, '-o', out, '--format', 'json']);
    expect(rescored.code, rescored.stderr).toBe(0);
    const intervals = (JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as { metrics: { intervals: Record<string, Rate> } }).metrics.intervals;
    expect(await page.textContent('#figures')).toBe(`top-1 accuracy ${rateText(intervals['top1Accuracy']!)} · answerable ${rateText(intervals['answerableAccuracy']!)}`);
    expect(intervals['top1Accuracy']!.n).toBe(6);
  });

  it('a set edited on disk meanwhile is never overwritten: the page says so and stops', async () => {
    const before = readFileSync(set, 'utf8');
    const edited = before.replace('"a note, with a comma"', '"a note, edited by hand"');
    writeFileSync(set, edited);
    await page.keyboard.press('r'); // q7
    await page.waitForSelector('#banner:not([hidden])');
    expect(await page.textContent('#banner')).toBe('Nothing more is written: the question set changed on disk since this page read it: nothing was written; reload the page.');
    await settled();
    expect(readFileSync(set, 'utf8')).toBe(edited);
    await page.keyboard.press('u');
    await settled();
    expect(readFileSync(set, 'utf8')).toBe(edited);
    writeFileSync(set, before);
  });

  it('undo works after a restart: the last decision (q4) is taken back, and its question shown again', async () => {
    const before = readFileSync(set, 'utf8');
    await server.close();
    server = await startLabelServer({ run, kb: KB, host: '127.0.0.1', port: 0 });
    await openPage(server.url);
    expect(await page.getAttribute('#card', 'data-id')).toBe('q7');
    await page.keyboard.press('u');
    await page.waitForSelector('#card[data-id="q4"]');
    await settled();
    const q4 = 'q4,when will my refund arrive,,,,,,';
    expect(readFileSync(set, 'utf8')).toBe(before.replace(`${q4}fallback`, q4));
    expect(await page.textContent('#labeled')).toBe('4');
    expect(problems).toEqual([]);
  });

  it('without its token the page is refused; a page of another site cannot write, even with the token', async () => {
    const response = await page.goto(server.url.replace(/\?token=.*/, ''));
    expect(response?.status()).toBe(403);
    const token = new URL(server.url).searchParams.get('token')!;
    const before = readFileSync(set, 'utf8');
    const attacker: Loopback = await startLoopback((_, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.end(`<!doctype html><title>x</title><script>
        fetch(${JSON.stringify(new URL('/api/undo', server.url).href)}, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Answer-Eval-Token': ${JSON.stringify(token)} }, body: '{"revision":"x"}' })
          .then((r) => { document.title = 'answered ' + r.status; }, () => { document.title = 'refused'; });
      </script>`);
    });
    try {
      await page.goto(attacker.url);
      await page.waitForFunction(() => document.title !== 'x');
      expect(await page.title()).toBe('refused');
      expect(readFileSync(set, 'utf8')).toBe(before);
    } finally {
      await attacker.close();
    }
  });

  it('puts every string of the set, the run and the knowledge base in as text, never as HTML', async () => {
    const hostile = '<img src=x onerror="window.__xss=1">';
    const opened = await openModules(
      browser,
      "import { drawCard, drawHits } from './src/pages/label/view.ts'; Object.assign(window, { drawCard, drawHits });",
      '<section id="card"></section><ol id="kb-hits"></ol>',
    );
    try {
      const texts = await opened.page.evaluate((h) => {
        const w = window as unknown as { drawCard: (i: unknown, d: string) => void; drawHits: (h: unknown[], c: number) => void; __xss?: number };
        const answer = { rank: 1, sequence: 1, label: h, category: h, score: 50, text: h, flags: ['suggestion'], pickable: true };
        w.drawCard({ id: h, line: 2, question: h, language: 'en', count: 1, outcome: 'unlabeled', expected: h, answers: [answer], closeness: null }, '');
        w.drawHits([{ sequence: 2, label: h, category: h, text: h }], 0);
        return { imgs: document.querySelectorAll('img').length, question: document.getElementById('question')!.textContent, xss: w.__xss ?? 0 };
      }, hostile);
      expect(texts).toEqual({ imgs: 0, question: hostile, xss: 0 });
    } finally {
      await opened.close();
    }
  });
});
