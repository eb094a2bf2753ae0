import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderString } from '../../src/report/formats.js';
import { readReport } from '../../src/report/read.js';
import type { Report } from '../../src/model/report.js';
import { CHROMIUM, launchBrowser, openPage, sharedPage, type SharedPage } from '../helpers/browser.js';
import { runCli } from '../helpers/cli.js';
import { makeReport } from '../helpers/report-fixture.js';
import { arraySource } from '../../src/model/source.js';
import { computeMetrics } from '../../src/score/metrics/index.js';
import { tempDir } from '../helpers/tmp.js';

// report.html as a knowledge editor reads it: layout at 1440 and 390 px, light and dark, and the ways from the
// first screen, the entry table, the matrix and the slices to their questions.

const hasChromium = existsSync(CHROMIUM);
const dir = tempDir('answer-eval-page-');
const WIDE = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };
let browser: Browser;

const write = (name: string, html: string): string => {
  const path = join(dir, name);
  writeFileSync(path, html);
  return path;
};

/** Elements of `selector` whose text sticks out of their own box or out of the container's (`[]`: none). */
const overflowing = (page: Page, selector: string) =>
  page.evaluate((sel) => {
    const found: string[] = [];
    const name = (el: Element) => `${el.tagName.toLowerCase()}${el.className ? `.${String(el.className).replace(/ /g, '.')}` : ''} "${(el.textContent ?? '').trim().slice(0, 40)}"`;
    for (const box of Array.from(document.querySelectorAll(sel))) {
      const outer = box.getBoundingClientRect();
      for (const el of [box, ...Array.from(box.querySelectorAll('*'))]) {
        const style = getComputedStyle(el);
        if (style.display === 'none' || style.visibility === 'hidden') continue;
        if (el instanceof HTMLElement && el.clientWidth > 0 && (el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1) && style.overflow !== 'visible') {
          found.push(`${name(el)} scrolls: ${el.scrollWidth}x${el.scrollHeight} in ${el.clientWidth}x${el.clientHeight}`);
        }
        // every text line inside the container's box
        for (const node of Array.from(el.childNodes)) {
          if (node.nodeType !== Node.TEXT_NODE || (node.textContent ?? '').trim() === '') continue;
          const range = document.createRange();
          range.selectNodeContents(node);
          for (const r of Array.from(range.getClientRects())) {
            if (r.left < outer.left - 1 || r.right > outer.right + 1 || r.top < outer.top - 1 || r.bottom > outer.bottom + 1) {
              found.push(`${name(el)}: text at ${Math.round(r.left)}–${Math.round(r.right)} outside ${Math.round(outer.left)}–${Math.round(outer.right)}`);
            }
          }
        }
      }
    }
    return found;
  }, selector);

/** SVG texts outside their chart's viewBox, and mark labels of one chart that overlap (`[]`: none). */
const chartTextProblems = (page: Page) =>
  page.evaluate(() => {
    const found: string[] = [];
    for (const svg of Array.from(document.querySelectorAll<SVGSVGElement>('svg.chart'))) {
      const view = svg.viewBox.baseVal;
      const texts = Array.from(svg.querySelectorAll<SVGTextElement>('text'));
      for (const t of texts) {
        const b = t.getBBox();
        if (b.x < -0.5 || b.x + b.width > view.width + 0.5) found.push(`${svg.getAttribute('aria-label')}: "${t.textContent}" at ${b.x.toFixed(1)}–${(b.x + b.width).toFixed(1)} of ${view.width}`);
      }
      const marks = texts.filter((t) => t.classList.contains('mark-label')).map((t) => [t.textContent, t.getBBox()] as const);
      for (let i = 0; i < marks.length; i++) {
        for (let j = i + 1; j < marks.length; j++) {
          const [[ta, a], [tb, b]] = [marks[i]!, marks[j]!];
          if (a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height) found.push(`${svg.getAttribute('aria-label')}: "${ta}" overlaps "${tb}"`);
        }
      }
    }
    return found;
  });

/** WCAG contrast of every visible link's text against the background it is drawn on (alpha composited). */
const linkContrasts = (page: Page) =>
  page.evaluate(() => {
    const rgba = (c: string): number[] => {
      const m = /rgba?\(([^)]+)\)/.exec(c);
      if (!m) return [0, 0, 0, 0];
      const [r, g, b, a] = m[1]!.split(/[ ,/]+/).filter(Boolean).map(Number);
      return [r!, g!, b!, a ?? 1];
    };
    const background = (el: Element): number[] => {
      const layers: number[][] = [];
      for (let e: Element | null = el; e; e = e.parentElement) {
        const c = rgba(getComputedStyle(e).backgroundColor);
        if (c[3]! > 0) layers.push(c);
        if (c[3] === 1) break;
      }
      let out = [255, 255, 255];
      for (const [r, g, b, a] of layers.reverse()) out = [r! * a! + out[0]! * (1 - a!), g! * a! + out[1]! * (1 - a!), b! * a! + out[2]! * (1 - a!)];
      return out;
    };
    const luminance = ([r, g, b]: number[]) => {
      const lin = (v: number) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
      return 0.2126 * lin(r!) + 0.7152 * lin(g!) + 0.0722 * lin(b!);
    };
    const results: { text: string; ratio: number }[] = [];
    for (const a of Array.from(document.querySelectorAll('a'))) {
      const rect = a.getBoundingClientRect();
      if (rect.width === 0 || a.querySelector('.badge')) continue; // an outcome badge keeps its own colours
      const [l1, l2] = [luminance(rgba(getComputedStyle(a).color)), luminance(background(a))];
      results.push({ text: (a.textContent ?? '').trim().slice(0, 30), ratio: (Math.max(l1, l2) + 0.05) / (Math.min(l1, l2) + 0.05) });
    }
    return results;
  });

const status = (page: Page) => page.locator('#table-status').textContent();
const shownCount = async (page: Page): Promise<number> => Number(/of (\d+) questions/.exec((await status(page)) ?? '')?.[1] ?? 0);

describe.skipIf(!hasChromium)('report.html for a knowledge editor (headless Chromium)', () => {
  // the scoring's own metrics (the fixture's are only plausible), so the page's figures and its clicks can be compared
  const fixture = makeReport(300);
  const report: Report = { ...fixture, metrics: computeMetrics(arraySource(fixture.results)) };
  let path: string;
  let shared: SharedPage;

  beforeAll(async () => {
    browser = await launchBrowser();
    shared = await sharedPage(browser);
    path = write('report.html', renderString('html', report));
  }, 60_000);
  afterAll(async () => {
    await shared?.close();
    await browser?.close();
  });

  for (const [viewport, scheme] of [[WIDE, 'light'], [PHONE, 'light'], [WIDE, 'dark'], [PHONE, 'dark']] as const) {
    it(`at ${viewport.width} px, ${scheme}: no text leaves its box in the header and the cards, no page scroll sideways, charts keep their labels`, async () => {
      const page = await shared.view(path, { viewport, colorScheme: scheme });
      expect(await overflowing(page, 'header, .card, nav.toc a')).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
      expect(await chartTextProblems(page)).toEqual([]);
      // the header is as wide as the page, and its run facts are not squeezed into a narrow column
      expect((await page.locator('header').boundingBox())!.width).toBeGreaterThan(viewport.width * 0.9);
      const factLines = await page.locator('header .run-meta li').evaluateAll((items) => new Set(items.map((li) => Math.round(li.getBoundingClientRect().top))).size);
      expect(factLines).toBeLessThanOrEqual(viewport === WIDE ? 1 : 4);
      expect(shared.problems).toEqual([]);
    });
  }

  // the tests that only read the page first, on the document the layout tests opened
  it('states the floor advice: the objective in words and where the curve starts', async () => {
    const page = await shared.view(path, { viewport: WIDE });
    const t = report.metrics!.thresholds;
    const card = (await page.locator('.floor-card').textContent())!;
    expect(card).toContain(t.objectiveText);
    expect(card).toContain(`answered nothing below ${t.replayableFrom}`);
    expect(await page.locator('#floor svg.chart').nth(0).getAttribute('aria-label')).toMatch(/by floor threshold/);
  });

  it('keeps question ids whole in the table', async () => {
    const page = await shared.view(path, { viewport: WIDE });
    const lines = await page.locator('#q-body td.id').evaluateAll((cells) => cells.map((c) => {
      const range = document.createRange();
      range.selectNodeContents(c);
      return range.getClientRects().length;
    }));
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.every((n) => n === 1)).toBe(true);
  });

  it('keeps chart labels apart and inside the chart when they crowd: p50 next to p90, a long slice label', async () => {
    const m = report.metrics!;
    const [first, ...rest] = m.breakdowns.category;
    const crowded: Report = {
      ...report,
      summary: { ...report.summary, latencyMs: { ...report.summary.latencyMs, p50: 200, p90: 204 } },
      metrics: { ...m, breakdowns: { ...m.breakdowns, category: [{ ...first!, key: 'a rather long category name', total: 123_456, top1Accuracy: { ...first!.top1Accuracy, value: 1, low: 0.99, high: 1 } }, ...rest] } },
    };
    const page = await shared.view(write('crowded.html', renderString('html', crowded)), { viewport: PHONE });
    expect(await page.locator('svg.chart .mark-label').allTextContents()).toEqual(expect.arrayContaining(['p50 200 ms', 'p90 204 ms']));
    expect(await chartTextProblems(page)).toEqual([]);
  });

  it('puts the failing questions one click from the first screen', async () => {
    const page = await shared.load(path, { viewport: WIDE });
    const cta = page.locator('a.cta');
    const box = (await cta.boundingBox())!;
    expect(box.y + box.height).toBeLessThanOrEqual(WIDE.height);
    const failing = report.results.filter((r) => ['wrong', 'abstained', 'fallback_missed', 'error'].includes(r.outcome)).length;
    expect(await cta.textContent()).toContain(`${failing} failing questions`);
    await page.selectOption('#f-outcome', ''); // the table moved away from its first state
    await cta.click();
    expect(await status(page)).toContain(`of ${failing} questions (filtered from 300)`);
    const table = (await page.locator('#q-table').boundingBox())!;
    expect(table.y).toBeLessThan(WIDE.height);
    expect(table.y).toBeGreaterThanOrEqual(0);
  });

  it('sorts and filters the entry table, opens an entry on its answer text, and clicks through to its questions', async () => {
    const page = await shared.load(path, { viewport: WIDE });
    const entries = report.metrics!.entries;
    const rows = page.locator('#e-table tbody tr.entry:not([hidden])');
    expect(await rows.count()).toBe(entries.length);
    const f1s = async () => (await page.locator('#e-table tbody tr.entry:not([hidden]) td:nth-child(7)').allTextContents()).filter((t) => t !== '—').map(Number);
    expect(await f1s()).toEqual([...(await f1s())].sort((a, b) => a - b)); // worst first
    await page.locator('#e-table th[data-esort="6"]').click();
    expect(await f1s()).toEqual([...(await f1s())].sort((a, b) => b - a));
    await page.locator('#e-table th[data-esort="2"]').click(); // questions, most first
    const counts = (await page.locator('#e-table tbody tr.entry td:nth-child(3)').allTextContents()).map(Number);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));

    await page.selectOption('#e-category', 'returns');
    const returns = entries.filter((e) => e.category === 'returns');
    await expect.poll(() => rows.count()).toBe(returns.length);
    expect(new Set(await page.locator('#e-table tbody tr.entry:not([hidden]) td:nth-child(2)').allTextContents())).toEqual(new Set(['returns']));
    await page.selectOption('#e-category', '');
    await page.fill('#e-search', 'refunds take 5 days');
    await expect.poll(() => rows.count()).toBe(1);
    await rows.first().locator('button.toggle').click();
    const detail = page.locator('#e-table tr.entry-detail:not([hidden])');
    expect(await detail.locator('.entry-text').textContent()).toContain('Refunds take 5 days.');
    expect(await detail.locator('img').count()).toBe(0); // the hostile text stays text
    await page.fill('#e-search', '');

    // an entry: the questions that expect it, as many as the table says
    const entry = entries.filter((e) => e.expected > 2 && e.losesTo.some((f) => f.key !== '(refused)')).sort((a, b) => b.expected - a.expected)[0]!;
    await page.locator(`#e-table td.entry a.goto[data-expected="${entry.key}"]`).click();
    expect(await shownCount(page)).toBe(entry.expected);
    expect(await page.locator('#f-entry').isVisible()).toBe(true);
    expect(await page.locator('#f-entry-text').textContent()).toBe(`expected ${entry.key}`);
    // a loses-to chip: the questions that went to that entry
    const flow = entry.losesTo.find((f) => f.key !== '(refused)')!;
    await page.locator(`#e-table a.chip[data-expected="${entry.key}"][data-got="${flow.key}"]`).first().click();
    expect(await shownCount(page)).toBe(flow.count);
    for (const id of flow.examples) expect(await page.locator('#q-body tr.row td.id').allTextContents()).toContain(id);
    // answered by it
    await page.locator(`#e-table a.goto[data-got="${entry.key}"]:not([data-expected])`).first().click();
    expect(await shownCount(page)).toBe(entry.answered);
    await page.click('#f-entry-clear');
    expect(await shownCount(page)).toBe(300);
    expect(shared.problems).toEqual([]);
  });

  it('renders the confusion matrix, each cell a link to its questions', async () => {
    const page = await shared.load(path, { viewport: WIDE });
    const size = await page.locator('table.matrix tbody tr').count();
    expect(size).toBeGreaterThanOrEqual(2);
    expect(await page.locator('table.matrix thead th').count()).toBe(size + 3); // corner, entries, refused, other
    const cell = page.locator('table.matrix td:not(.diag) a.goto').first();
    const n = Number(await cell.textContent());
    expect(n).toBeGreaterThan(0);
    await cell.click();
    expect(await shownCount(page)).toBe(n);
  });

  it('a category slice, in the table or the chart, shows its questions', async () => {
    const page = await shared.load(path, { viewport: WIDE });
    const slice = report.metrics!.breakdowns.category.find((s) => s.key === 'privacy')!;
    await page.locator('tr.goto[data-category="privacy"]').click();
    expect(await page.locator('#f-category').inputValue()).toBe('privacy');
    expect(await shownCount(page)).toBe(slice.total);
    await page.selectOption('#f-category', '');
    await page.locator('svg g.goto[data-category="returns"]').click();
    expect(await shownCount(page)).toBe(report.metrics!.breakdowns.category.find((s) => s.key === 'returns')!.total);
  });

  it('in dark mode, links are readable (contrast at least 4.5)', async () => {
    const page = await shared.load(path, { viewport: WIDE, colorScheme: 'dark' });
    await page.locator('#e-table tbody tr.entry button.toggle').first().click(); // links inside an open entry too
    for (const colorScheme of ['dark', 'light'] as const) {
      await shared.show({ viewport: WIDE, colorScheme });
      const links = await linkContrasts(page);
      expect(links.length).toBeGreaterThan(20);
      expect(links.filter((l) => l.ratio < 4.5), colorScheme).toEqual([]);
    }
  });
});

/**
 * The screenshots in docs/ (docs/reports.md, "report.html"): `UPDATE_SCREENSHOTS=1 npx vitest run test/report/html.page.browser.test.ts`
 * after `npm run build`. From SCREENSHOT_FROM (a report.json, e.g. a run on CLINC150), else from a run of the
 * embedded engine on the sample set; the conversations' threads from a run on the sample dialogues.
 */
describe.skipIf(!hasChromium || process.env['UPDATE_SCREENSHOTS'] !== '1')('docs/ screenshots', () => {
  beforeAll(async () => {
    browser = await launchBrowser();
  }, 60_000);
  afterAll(() => browser?.close());

  it('shoots report.html at 1440 and 390 px, light and dark', async () => {
    let from = process.env['SCREENSHOT_FROM'];
    if (!from) {
      const out = join(dir, 'sample-run');
      const run = await runCli(['run', '-o', out, '--format', 'json']);
      expect(run.code).toBe(0);
      from = join(out, 'report.json');
    }
    const report: Report = await readReport(from);
    const path = write('shots.html', renderString('html', report));
    mkdirSync('docs', { recursive: true });
    for (const [viewport, name] of [[WIDE, '1440'], [PHONE, '390']] as const) {
      for (const colorScheme of ['light', 'dark'] as const) {
        const { page, close } = await openPage(browser, path, { viewport, colorScheme });
        try {
          await page.screenshot({ path: `docs/report-${name}-${colorScheme}.png`, fullPage: viewport === WIDE });
        } finally {
          await close();
        }
      }
    }
  }, 180_000);

  it('shoots the conversations of report.html (threads) at 1440 and 390 px, light and dark, from a run of the sample dialogues', async () => {
    const out = join(dir, 'sample-conversations');
    const run = await runCli(['run', '-d', 'datasets/sample/conversations.jsonl', '-o', out, '--format', 'json', '-q']);
    expect(run.code).toBe(0);
    const path = write('shots-conversations.html', renderString('html', await readReport(join(out, 'report.json'))));
    for (const [viewport, name] of [[WIDE, '1440'], [PHONE, '390']] as const) {
      for (const colorScheme of ['light', 'dark'] as const) {
        const { page, close } = await openPage(browser, path, { viewport, colorScheme });
        try {
          // the first screen of the threads: the controls and the first failing conversation, open
          await page.evaluate(() => window.scrollTo(0, document.getElementById('c-controls')!.getBoundingClientRect().top + window.scrollY - 60));
          await page.screenshot({ path: `docs/report-conversations-${name}-${colorScheme}.png` });
        } finally {
          await close();
        }
      }
    }
  }, 180_000);
});
