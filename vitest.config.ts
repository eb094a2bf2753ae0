import { defineConfig } from 'vitest/config';

// Two projects: `fast` (pure functions and in-process servers) and `slow` (the built CLI run as a process,
// `*.e2e.test.ts`, and real Chromium, `*.browser.test.ts`). `npm test` runs both; `npm run test:fast` the first.
const SLOW = ['test/**/*.e2e.test.ts', 'test/**/*.browser.test.ts'];

export default defineConfig({
  test: {
    // the pages' scripts (src/pages/), bundled before any test renders a page: tests import src/ without a build
    globalSetup: ['./build-pages.mjs'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    projects: [
      { extends: true, test: { name: 'fast', include: ['test/**/*.test.ts'], exclude: SLOW } },
      { extends: true, test: { name: 'slow', include: SLOW } },
    ],
  },
});
