import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

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

/**
 * The relative modules a module names: its imports and re-exports, those only types use included (`import type`,
 * `import { type X }`), and every `import('…')`, a type's or a lazy load's. The compiler's own pre-scan finds them
 * (the one it finds a program's files with): strings and comments that look like imports are not taken.
 */
export function imports(file: string, text = readFileSync(file, 'utf8')): string[] {
  return ts
    .preProcessFile(text, true, true)
    .importedFiles.map((f) => f.fileName)
    .filter((spec) => spec.startsWith('.'))
    .map((spec) => resolve(dirname(file), spec.replace(/\.js$/, '.ts')));
}
