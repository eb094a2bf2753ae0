// Bundles the browser code of the pages (src/pages/*.ts, one entry per page) into one script each, written to
// dist/page-scripts/<page>.js, which the renderers inline into report.html, compare.html and trend.html, and
// `answer-eval label` into its page (src/report/html/script.ts). Run by `npm run build`, and by vitest before any test (globalSetup), so the
// tests that import src/ directly render the page code as it is now. esbuild is a dev dependency: the package
// ships the bundles, never the bundler.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

export const PAGES = ['report', 'report-conversations', 'compare', 'trend', 'label'];
const ROOT = fileURLToPath(new URL('.', import.meta.url));
const OUT = `${ROOT}dist/page-scripts`;

/** Builds every page's script; returns their sizes in bytes. Throws on a build error, or on code an inline script cannot hold. */
export async function buildPages() {
  const result = await build({
    entryPoints: PAGES.map((page) => `${ROOT}src/pages/${page}.ts`),
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    legalComments: 'none',
    // `</script` in a string is written `<\/script`, so the code can sit in a <script> element
    supported: { 'inline-script': true },
    write: false,
    outdir: OUT,
    logLevel: 'silent',
  });
  mkdirSync(OUT, { recursive: true });
  const sizes = {};
  for (const file of result.outputFiles) {
    const name = file.path.slice(OUT.length + 1);
    if (/<\/script|<!--/i.test(file.text)) throw new Error(`${name}: the bundle holds "</script" or "<!--", which would end or break its <script> element`);
    sizes[name] = file.contents.length;
    // through a temporary file: another vitest process may read it meanwhile
    const path = `${OUT}/${name}`;
    let old = null;
    try { old = readFileSync(path, 'utf8'); } catch { /* not built yet */ }
    if (old === file.text) continue;
    writeFileSync(`${path}.${process.pid}.tmp`, file.text);
    renameSync(`${path}.${process.pid}.tmp`, path);
  }
  return sizes;
}

/** vitest's globalSetup: the bundles, before any test renders a page. */
export const setup = async () => { await buildPages(); };

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const sizes = await buildPages();
  console.log(`page scripts: ${Object.entries(sizes).map(([name, bytes]) => `${name} ${(bytes / 1024).toFixed(1)} kB`).join(', ')}`);
}
