// Bundles the CLI (dist/cli/main.js, as tsc wrote it, and everything it imports, its dependencies included) into
// dist/cli/main.js and dist/cli/chunks/: a command loads a few files instead of some 150 modules, so it starts at once
// (BENCHMARKS.md (i)). Each command's job stays a chunk of its own, loaded when the command runs. The library
// (dist/index.js) is tsc's output, unbundled. Run by `npm run build`, after tsc; esbuild is a dev dependency.
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('.', import.meta.url));

rmSync(`${ROOT}dist/cli/chunks`, { recursive: true, force: true });
await build({
  entryPoints: { main: `${ROOT}dist/cli/main.js` },
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  outdir: `${ROOT}dist/cli`,
  chunkNames: 'chunks/[name]-[hash]',
  allowOverwrite: true,
  // a dependency written as CommonJS asks for require(), which an ES module has not
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  legalComments: 'none',
  logLevel: 'warning',
});
