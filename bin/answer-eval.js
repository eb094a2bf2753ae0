#!/usr/bin/env node
// The answer-eval command: it runs the build in dist/, which `npm install` makes (the prepare script). This file is
// in the repository, so that npx links it from a fresh clone and a missing build is said, not "not found".
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const main = new URL('../dist/cli/main.js', import.meta.url);
if (existsSync(main)) {
  await import(main.href);
} else {
  process.stderr.write(`answer-eval: not built yet: run \`npm install\` (or \`npm run build\`) in ${fileURLToPath(new URL('..', import.meta.url))}\n`);
  process.exitCode = 2;
}
