import { existsSync } from 'node:fs';
import { chromium, type BrowserServer } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { CHROMIUM, CHROMIUM_ARGS } from '../helpers/browser.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The Chromium every browser test connects to (test/helpers/browser.ts launchBrowser); '' where there is none. */
    browserEndpoint: string;
  }
}

let server: BrowserServer | undefined;

/** One headless Chromium for the whole run, started before the browser tests and shared by them (each opens its own contexts). */
export async function setup(project: TestProject): Promise<void> {
  if (existsSync(CHROMIUM)) server = await chromium.launchServer({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  project.provide('browserEndpoint', server?.wsEndpoint() ?? '');
}

export async function teardown(): Promise<void> {
  await server?.close();
}
