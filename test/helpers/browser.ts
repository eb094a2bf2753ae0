import { chromium, type Browser, type BrowserContextOptions, type Page } from 'playwright-core';
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

/** Opens a local HTML file, recording console errors, page errors and every request; waits for `body[data-ready]` with JavaScript on. */
export async function openPage(browser: Browser, path: string, options: BrowserContextOptions = {}): Promise<OpenPage> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...options });
  const page = await context.newPage();
  const problems: string[] = [];
  const requests: string[] = [];
  page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') problems.push(m.text()); });
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('request', (r) => requests.push(r.url()));
  await page.goto(pathToFileURL(path).href);
  if (options.javaScriptEnabled !== false) await page.waitForSelector('body[data-ready="true"]', { timeout: 60_000 });
  return { page, problems, requests, close: () => context.close() };
}
