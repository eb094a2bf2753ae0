import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';
import { pathToFileURL } from 'node:url';
import { inject } from 'vitest';

/** Debian's chromium; override with CHROMIUM_PATH. */
export const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

/** The flags this closed network needs (no background connections). */
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/**
 * Headless Chromium: the one the run started (test/setup/browser.ts), connected to; a browser of its own where the run
 * started none (a test file run outside its project). `close()` lets go of it, leaving the shared one running.
 */
export function launchBrowser(): Promise<Browser> {
  const endpoint = inject('browserEndpoint');
  if (endpoint) return chromium.connect(endpoint);
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
}

export interface OpenPage {
  page: Page;
  /** Console errors and warnings, and uncaught page errors. */
  problems: string[];
  /** Every URL the page asked for. */
  requests: string[];
  close: () => Promise<void>;
}

/** A new page of `context` recording its console errors and warnings, its uncaught errors and every request. */
async function watchedPage(context: BrowserContext): Promise<Omit<OpenPage, 'close'>> {
  const page = await context.newPage();
  const problems: string[] = [];
  const requests: string[] = [];
  page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') problems.push(m.text()); });
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('request', (r) => requests.push(r.url()));
  return { page, problems, requests };
}

/** Opens a local HTML file, recording console errors, page errors and every request; waits for `body[data-ready]` with JavaScript on. */
export async function openPage(browser: Browser, path: string, options: BrowserContextOptions = {}): Promise<OpenPage> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...options });
  const { page, problems, requests } = await watchedPage(context);
  await page.goto(pathToFileURL(path).href);
  if (options.javaScriptEnabled !== false) await page.waitForSelector('body[data-ready="true"]', { timeout: 60_000 });
  return { page, problems, requests, close: () => context.close() };
}

/** What a page is shown on: its viewport and colour scheme (1280×900, light by default). */
export interface Screen {
  viewport?: { width: number; height: number };
  colorScheme?: 'light' | 'dark';
}

const DEFAULT_VIEWPORT = { width: 1280, height: 900 };

/** A file's path as a file: URL; a URL as it is. */
const urlOf = (where: string): string => (/^[a-z]+:\/\//.test(where) ? where : pathToFileURL(where).href);

/**
 * One page for all the tests of a file (a new page costs a renderer process, a second or more on a loaded machine):
 * `problems` and `requests` are those of the document shown now.
 */
export interface SharedPage extends OpenPage {
  /** Opens `where` (a file's path or a URL) afresh on `screen`, for a test that acts on the page: a new document, its problems and requests from zero. */
  load: (where: string, screen?: Screen) => Promise<Page>;
  /**
   * Shows `where` on `screen`, for a test that only reads the page: the document an earlier `view` opened, when no
   * `load` came since, with its viewport and colour scheme changed (the pages lay out by CSS alone, so it looks as if
   * opened on that screen); else opened afresh.
   */
  view: (where: string, screen?: Screen) => Promise<Page>;
  /** Shows the document as it is on another screen (its viewport and colour scheme). */
  show: (screen: Screen) => Promise<void>;
}

export interface SharedPageOptions {
  /** Run the pages' scripts (a context option, so a page of its own either way). @default true */
  javaScriptEnabled?: boolean;
  /** What shows that a document is drawn, waited for after each opening; `null`: nothing to wait for. @default 'body[data-ready="true"]' with JavaScript, else null */
  ready?: string | null;
}

/** A page to share between a file's tests (see SharedPage), in a context of its own. */
export async function sharedPage(browser: Browser, { javaScriptEnabled = true, ready = javaScriptEnabled ? 'body[data-ready="true"]' : null }: SharedPageOptions = {}): Promise<SharedPage> {
  const context = await browser.newContext({ viewport: DEFAULT_VIEWPORT, javaScriptEnabled });
  const { page, problems, requests } = await watchedPage(context);
  let shown: { viewport: { width: number; height: number }; colorScheme: 'light' | 'dark' } = { viewport: DEFAULT_VIEWPORT, colorScheme: 'light' };
  let readOnly: string | undefined; // what `view` opened, while no `load` came since
  const show = async ({ viewport = DEFAULT_VIEWPORT, colorScheme = 'light' }: Screen): Promise<void> => {
    if (viewport.width !== shown.viewport.width || viewport.height !== shown.viewport.height) await page.setViewportSize(viewport);
    if (colorScheme !== shown.colorScheme) await page.emulateMedia({ colorScheme });
    shown = { viewport, colorScheme };
  };
  const open = async (where: string, screen: Screen): Promise<Page> => {
    await show(screen);
    problems.length = 0;
    requests.length = 0;
    await page.goto(urlOf(where));
    if (ready !== null) await page.waitForSelector(ready, { timeout: 60_000 });
    return page;
  };
  return {
    page,
    problems,
    requests,
    close: () => context.close(),
    show,
    load: async (where, screen = {}) => {
      readOnly = undefined;
      return open(where, screen);
    },
    view: async (where, screen = {}) => {
      if (readOnly === where) {
        await show(screen);
        return page;
      }
      await open(where, screen);
      readOnly = where;
      return page;
    },
  };
}
