import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Two projects: `fast` (pure functions, in-process servers and the CLI run in-process) and `slow` (`*.e2e.test.ts`,
// whole workflows through the CLI, a few of them as real processes, and `*.browser.test.ts`, real Chromium: one,
// started for the run by test/setup/browser.ts). `npm test` runs both; `npm run test:fast` the first.
const SLOW = ['test/**/*.e2e.test.ts', 'test/**/*.browser.test.ts'];

export default defineConfig({
  test: {
    // the pages' scripts (src/pages/), bundled before any test renders a page: tests import src/ without a build
    globalSetup: ['./build-pages.mjs'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // every core: most tests wait on a server or a child process as much as they compute
    maxWorkers: Math.max(2, availableParallelism()),
    // the test files of a worker share their modules: src/ is loaded once per worker, not once per file (which cost
    // more than the tests themselves); what each file must end with is in test/setup/each-file.ts
    isolate: false,
    setupFiles: ['./test/setup/each-file.ts'],
    projects: [
      { extends: true, test: { name: 'fast', include: ['test/**/*.test.ts'], exclude: SLOW } },
      { extends: true, test: { name: 'slow', include: SLOW, globalSetup: ['./build-pages.mjs', './test/setup/browser.ts'] } },
    ],
  },
});
