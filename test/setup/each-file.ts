import { afterAll, expect } from 'vitest';
import { takeWarnings } from '../helpers/cli.js';
import { resetIds } from '../helpers/results.js';
import { removeTempDirs } from '../helpers/tmp.js';

resetIds();

// Run before each test file (vitest setupFiles); test files share their modules (isolate: false in vitest.config.ts),
// so what each file must end with is registered here, for each file.
afterAll(() => {
  removeTempDirs();
  // every CLI run of the file, killed ones included: no Node warning may reach a user
  expect(takeWarnings(), 'Node printed warnings on the stderr of these CLI runs (fix their cause)').toEqual([]);
});
