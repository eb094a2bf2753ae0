import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Everything answer-eval prints goes through src/job/output.ts, which makes data safe for a terminal and a CI log
// (src/util/terminal.ts). A write to the console anywhere else would print data raw.
const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../../src');
const ALLOWED: Record<string, string> = {
  'job/output.ts': 'the one writer',
  'cli/main.ts': 'the process entry, answering --version before anything else loads',
  'scripts/schema.ts': 'a build script (npm run schema) printing the paths of the schema files it wrote',
};
const WRITE = /\bprocess\.(stdout|stderr)\.write\b|\bconsole\.(log|error|warn|info|debug|trace|dir|table)\b/;

function* files(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else if (entry.name.endsWith('.ts')) yield path;
  }
}

describe('console output', () => {
  it('goes through src/job/output.ts only', () => {
    const raw: string[] = [];
    for (const file of files(SRC)) {
      const name = relative(SRC, file);
      if (ALLOWED[name] !== undefined) continue;
      readFileSync(file, 'utf8').split('\n').forEach((line, i) => {
        if (WRITE.test(line)) raw.push(`src/${name}:${i + 1}: ${line.trim()}`);
      });
    }
    expect(raw, 'print with print/printError of src/job/output.ts, which make data safe').toEqual([]);
  });
});
