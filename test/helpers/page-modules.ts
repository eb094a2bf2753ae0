import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { Browser } from 'playwright-core';
import { openPage, type OpenPage } from './browser.js';
import { tempDir } from './tmp.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Page modules (src/pages/) in Chromium, as the pages run them: `entry` (TypeScript, paths from the repository root)
 * imports them and hands them to the test on `window`; it is bundled as build-pages.mjs bundles a page, put in a
 * page after a heading (a page with nothing visible is never ready) and `body`, and opened once its code has run.
 */
export async function openModules(browser: Browser, entry: string, body: string): Promise<OpenPage> {
  const bundled = await build({
    stdin: { contents: `${entry}\ndocument.body.dataset['ready'] = 'true';`, resolveDir: ROOT, loader: 'ts', sourcefile: 'test-entry.ts' },
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    supported: { 'inline-script': true },
    write: false,
  });
  // a directory per page: the files of a worker share this module, and each file's directories go when it ends
  const file = join(tempDir('answer-eval-modules-'), `modules-${Math.random().toString(36).slice(2)}.html`);
  writeFileSync(file, `<!doctype html><html><head><meta charset="utf-8"></head><body><h1>page modules</h1>${body}<script>${bundled.outputFiles[0]!.text}</script></body></html>`);
  return openPage(browser, file);
}
