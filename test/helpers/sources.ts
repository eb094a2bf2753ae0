import { readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project's src/. */
export const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../../src');

/** Every .ts file below `dir`. */
export function* sourceFiles(dir: string = SRC): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(path);
    else if (entry.name.endsWith('.ts')) yield path;
  }
}
