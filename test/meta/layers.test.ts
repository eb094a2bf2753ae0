import { relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { imports, SRC, sourceFiles } from '../helpers/sources.js';

// The pipeline's layers, bottom first: a folder of src/ may import only the folders listed for it
// (and files at the root of src/: errors, version). model/ is the data contract every stage shares; pages/ is the
// browser code of the HTML reports, which imports nothing of the Node side (their renderers import its page data types).
const ALLOWED: Record<string, string[]> = {
  model: [],
  pages: [],
  util: [],
  dataset: ['model', 'util', 'engine'],
  client: ['model', 'util'],
  engine: ['model', 'util'],
  score: ['model', 'util'],
  run: ['model', 'util', 'dataset', 'client', 'score', 'engine'],
  report: ['model', 'util', 'score', 'pages'],
  compare: ['model', 'util', 'score', 'report', 'pages'],
  gate: ['model', 'util', 'compare'],
  merge: ['model', 'util', 'score', 'report', 'run'],
  export: ['model', 'score', 'report', 'dataset'],
  trend: ['model', 'util', 'score', 'report', 'gate'],
  rescore: ['model', 'util', 'dataset', 'score', 'report', 'run'],
  scripts: ['model', 'util', 'report', 'trend', 'compare', 'cli', 'config'],
  config: ['util'],
  'local-server': ['util'],
  view: ['model', 'util', 'report', 'local-server'],
  sample: ['model', 'util', 'dataset'],
  label: ['model', 'util', 'dataset', 'engine', 'score', 'report', 'run', 'rescore', 'local-server', 'pages'],
  job: ['model', 'util', 'dataset', 'client', 'engine', 'score', 'run', 'report', 'compare', 'gate', 'merge', 'export', 'trend', 'rescore', 'view', 'config', 'label', 'local-server', 'sample'],
  cli: ['job', 'config', 'util', 'model'],
};

/**
 * The CLI maps flags to the library's jobs (src/job/): of the other layers it reads only the files that declare flags
 * and their defaults, which load nothing heavy (test/meta/startup.test.ts).
 */
const CLI_READS = ['gate/options.ts', 'gate/fail-on.ts', 'report/threshold-options.ts', 'run/options.ts', 'trend/options.ts', 'engine/samples.ts', 'sample/options.ts'];

const folderOf = (path: string): string => relative(SRC, path).split('/')[0]!;

describe('layers', () => {
  it('no import in src/ runs back up the pipeline', () => {
    const wrong: string[] = [];
    for (const file of sourceFiles()) {
      const from = folderOf(file);
      if (from.endsWith('.ts')) continue; // src/index.ts, src/errors.ts, src/version.ts
      const allowed = ALLOWED[from];
      expect(allowed, `src/${from}/ has no place in the layers of this test`).toBeDefined();
      if (allowed!.includes('*')) continue;
      for (const target of imports(file)) {
        const to = folderOf(target);
        if (from === 'cli' && CLI_READS.includes(relative(SRC, target))) continue;
        if (to !== from && !to.endsWith('.ts') && !allowed!.includes(to)) wrong.push(`${relative(SRC, file)} imports ${relative(SRC, target)}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
