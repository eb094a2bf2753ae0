import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The package's own directory, the one holding its package.json: found from this module's place, which is src/util/
 * under vitest, dist/util/ in the library, and a chunk of dist/cli/ in the CLI's bundle (build-cli.mjs).
 */
export const PACKAGE_ROOT: string = (() => {
  const start = dirname(fileURLToPath(import.meta.url));
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`answer-eval: no package.json above ${start}: the package is incomplete`);
  }
})();

/** A path inside the package: `fromPackage('datasets', 'sample', 'kb.jsonl')`. */
export const fromPackage = (...parts: string[]): string => join(PACKAGE_ROOT, ...parts);
