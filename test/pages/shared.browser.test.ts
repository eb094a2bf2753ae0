import { existsSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as Dom from '../../src/pages/shared/dom.js';
import type * as Data from '../../src/pages/shared/data.js';
import type * as Table from '../../src/pages/shared/table.js';
import type { Pager } from '../../src/pages/shared/pager.js';
import { CHROMIUM, launchBrowser, type OpenPage } from '../helpers/browser.js';
import { openModules } from '../helpers/page-modules.js';

// The shared page modules (src/pages/shared/) in Chromium: the pieces every page's table, filters and pager are made of.

interface Shared {
  dom: typeof Dom;
  data: typeof Data;
  table: typeof Table;
  Pager: typeof Pager;
  log: string[];
}
const ENTRY = `
import * as dom from './src/pages/shared/dom.js';
import * as data from './src/pages/shared/data.js';
import * as table from './src/pages/shared/table.js';
import { Pager } from './src/pages/shared/pager.js';
Object.assign(window, { dom, data, table, Pager, log: [] });`;
const BODY = `<div id="status"></div><button id="prev">prev</button><button id="next">next</button><select id="size"></select>
<input id="search" type="search"><a href="#x" class="go" data-k="a">link</a><span class="go" tabindex="0" data-k="b">span</span>
<table><thead><tr><th data-sort="id">id</th><th data-sort="score">score</th></tr></thead><tbody id="body"><tr class="row" data-i="3" tabindex="0"><td>row</td></tr></tbody></table>`;

const hasChromium = existsSync(CHROMIUM);
let browser: Browser;
let opened: OpenPage;
let page: Page;

describe.skipIf(!hasChromium)('the shared page modules, in Chromium', () => {
  beforeAll(async () => {
    browser = await launchBrowser();
    opened = await openModules(browser, ENTRY, BODY);
    page = opened.page;
  }, 60_000);
  afterAll(async () => {
    await opened?.close();
    await browser?.close();
  });

  it('el makes text of any string, never markup', async () => {
    const made = await page.evaluate(() => {
      const { dom } = window as unknown as Shared;
      const node = dom.el('td', '<img src=x onerror="window.__xss=1">', 'id');
      return [node.outerHTML, node.querySelector('img') === null];
    });
    expect(made).toEqual(['<td class="id">&lt;img src=x onerror="window.__xss=1"&gt;</td>', true]);
  });

  it('Pager: a page of the list at a time, past the end the last page, buttons off at either end; page sizes in a select', async () => {
    const seen = await page.evaluate(() => {
      const { Pager, dom, log } = window as unknown as Shared;
      const list = Array.from({ length: 23 }, (_, i) => i);
      const states: unknown[] = [];
      const show = () => {
        const { items, from, pages } = pager.slice(list);
        states.push([items[0], items.length, from, pages, dom.byId<HTMLButtonElement>('prev').disabled, dom.byId<HTMLButtonElement>('next').disabled]);
      };
      const pager = new Pager(10, dom.byId('prev'), dom.byId('next'), show);
      show();
      dom.byId('next').click();
      dom.byId('next').click();
      pager.page = 7; // past the end: the last page
      show();
      dom.byId('prev').click();
      pager.sizes(dom.byId('size'), [5, 10, 25], () => log.push(`size ${pager.size}`));
      const select = dom.byId<HTMLSelectElement>('size');
      select.value = '25';
      select.dispatchEvent(new Event('change'));
      show();
      return { states, options: Array.from(select.options).map((o) => o.textContent), chosen: log };
    });
    expect(seen.states).toEqual([[0, 10, 0, 3, true, false], [10, 10, 10, 3, false, false], [20, 3, 20, 3, false, true], [20, 3, 20, 3, false, true], [10, 10, 10, 3, false, false], [0, 23, 0, 1, true, true]]);
    expect(seen.options).toEqual(['5 per page', '10 per page', '25 per page']);
    expect(seen.chosen).toEqual(['size 25']);
  });

  it('sortable heads: a click sorts by a column, first its own way, again the other way; aria-sort says which', async () => {
    const seen = await page.evaluate(() => {
      const { table } = window as unknown as Shared;
      const heads = Array.from(document.querySelectorAll<HTMLElement>('th[data-sort]'));
      const sort = { key: 'id', desc: false };
      const states: string[] = [];
      table.sortableHeads(heads, 'sort', sort, (key) => key === 'score', () => {
        table.showSort(heads, 'sort', sort);
        states.push(`${sort.key} ${sort.desc ? 'desc' : 'asc'} ${heads.map((h) => h.getAttribute('aria-sort')).join(',')}`);
      });
      heads[1]!.click();
      heads[1]!.click();
      heads[0]!.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter' }));
      return states;
    });
    expect(seen).toEqual(['score desc none,descending', 'score asc none,ascending', 'id asc ascending,none']);
  });

  it('order: numbers, strings, and pairs (the first, then the second)', async () => {
    const seen = await page.evaluate(() => {
      const { table } = window as unknown as Shared;
      return [table.order(1, 2), table.order('b', 'a'), table.order('a', 'a'), table.order([1, 5], [1, 2]), table.order([0, 9], [1, 0])];
    });
    expect(seen.map(Math.sign)).toEqual([-1, 1, 0, 1, -1]);
  });

  it('rows open and close on a click or Enter; links anywhere act on a click, and on Enter when they are not anchors', async () => {
    const seen = await page.evaluate(() => {
      const { dom, table, log } = window as unknown as Shared;
      log.length = 0;
      const open = new Set<number>();
      table.expandableRows(dom.byId('body'), open, () => log.push(`open ${[...open].join(',')}`));
      const row = document.querySelector<HTMLElement>('tr.row')!;
      row.querySelector('td')!.click();
      row.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
      dom.onLink('.go', (link, e) => log.push(`go ${link.dataset['k']} ${e.type} ${e.defaultPrevented}`), { enter: true });
      document.querySelector<HTMLElement>('a.go')!.click();
      document.querySelector<HTMLElement>('span.go')!.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
      document.querySelector<HTMLElement>('a.go')!.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
      return [...log];
    });
    // an anchor's Enter is the browser's own click, not a second call
    expect(seen).toEqual(['open 3', 'open ', 'go a click true', 'go b keydown false']);
  });

  it('onTyped waits for a pause in typing, then gives the text once', async () => {
    const seen = await page.evaluate(async () => {
      const { dom } = window as unknown as Shared;
      const calls: string[] = [];
      const input = dom.byId<HTMLInputElement>('search');
      const called = new Promise<void>((resolve) => dom.onTyped(input, 100, (text) => {
        calls.push(text);
        resolve();
      }));
      for (const text of ['a', 'ab', 'ab C']) {
        input.value = text;
        input.dispatchEvent(new Event('input'));
      }
      const atOnce = calls.length;
      await called;
      // a call for an earlier input would come from a timer set before the first call came: it would come before this
      await new Promise((r) => setTimeout(r, 0));
      return [atOnce, calls];
    });
    expect(seen).toEqual([0, ['ab C']]);
  });

  it('reads the gzip-compressed page data, and says so in the status when it cannot', async () => {
    const packed = gzipSync(JSON.stringify({ rows: [['q1', 'Grüße <b>']] })).toString('base64');
    const seen = await page.evaluate(async (b64) => {
      const { data, dom } = window as unknown as Shared;
      const holder = document.createElement('script');
      holder.id = 'page-data';
      holder.type = 'application/octet-stream';
      holder.textContent = b64;
      document.body.append(holder);
      const status = dom.byId('status');
      const read = await new Promise<unknown>((resolve) => data.withPageData(status, 'Loading…', 'page', resolve));
      holder.textContent = 'bm90IGd6aXA=';
      data.withPageData(status, 'Loading…', 'page', () => {});
      return [read, status.textContent];
    }, packed);
    expect(seen[0]).toEqual({ rows: [['q1', 'Grüße <b>']] });
    expect(seen[1]).toBe('Loading…');
    await expect.poll(() => page.locator('#status').textContent()).toMatch(/^Could not read the embedded data: /);
    expect(opened.problems).toEqual([]);
  });
});
