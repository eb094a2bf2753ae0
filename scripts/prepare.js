// npm's prepare script: builds dist/ when TypeScript is installed (npm install, npm ci), so that a fresh clone runs
// `npx answer-eval` at once. Without TypeScript (npx in a clone before npm install runs prepare too) it says so and
// succeeds: a failure there would leave npx a broken copy of this directory in its cache.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

let tsc;
try {
  tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
} catch {
  process.stderr.write('answer-eval: not built: `npm install` in this directory installs TypeScript and builds dist/\n');
  process.exit(0);
}
// what `npm run build` does: the Node code, the page code's DOM check, the pages' bundles
for (const args of [[tsc, '-p', 'tsconfig.json'], [tsc, '-p', 'tsconfig.pages.json'], ['build-pages.mjs']]) {
  const built = spawnSync(process.execPath, args, { stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
}
