import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SRC } from '../helpers/sources.js';

// A command starts at once: the CLI loads, before it knows the command, only its flags; each command's job (and the
// libraries it needs) loads when the command runs, by a dynamic import. npm run bench measures the time; this test
// keeps what loads up front from growing back.

/** The modules a module loads before it runs: its static imports, type-only ones aside, followed through src/. */
function staticClosure(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string): void => {
    if (files.has(file)) return;
    files.add(file);
    const text = readFileSync(file, 'utf8');
    for (const [, clause, spec] of text.matchAll(/^import\s+(type\s+)?[^'"]*?from\s+'([^']+)';?$/gm)) {
      if (clause !== undefined) continue; // import type: erased
      if (spec!.startsWith('.')) visit(resolve(dirname(file), spec!.replace(/\.js$/, '.ts')));
      else if (!spec!.startsWith('node:')) packages.add(spec!.startsWith('@') ? spec!.split('/').slice(0, 2).join('/') : spec!.split('/')[0]!);
    }
    for (const [, spec] of text.matchAll(/^import\s+'([^']+)';?$/gm)) if (spec!.startsWith('.')) visit(resolve(dirname(file), spec!.replace(/\.js$/, '.ts')));
  };
  visit(entry);
  return { files, packages };
}

describe('what the CLI loads before it knows the command', () => {
  const { files, packages } = staticClosure(resolve(SRC, 'cli/cli.ts'));

  it('is yargs alone of the dependencies: no schema library, HTTP client, parser or chart code', () => {
    expect([...packages].sort()).toEqual(['yargs']);
  });

  it('holds no job, nor any stage of the pipeline: only the flags of each command', () => {
    const stages = [...files].map((f) => relative(SRC, f)).filter((f) => !/^(cli|config|util|model)\//.test(f) && !['errors.ts', 'version.ts'].includes(f));
    // the files that declare flags and their defaults (test/meta/layers.test.ts CLI_READS), and the writer of the job's output
    expect(stages.sort()).toEqual(
      ['engine/samples.ts', 'gate/fail-on.ts', 'gate/options.ts', 'job/listen.ts', 'job/output.ts', 'job/run/options.ts', 'report/threshold-options.ts', 'run/options.ts', 'trend/options.ts', 'sample/options.ts'].sort(),
    );
  });

  it('answers --version before anything else loads', () => {
    const entry = staticClosure(resolve(SRC, 'cli/main.ts'));
    expect([...entry.files].map((f) => relative(SRC, f)).sort()).toEqual(['cli/heap.ts', 'cli/main.ts', 'cli/process-io.ts', 'util/package-root.ts', 'version.ts']);
    expect([...entry.packages]).toEqual([]);
  });
});
