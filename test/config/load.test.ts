import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commands } from '../../src/cli/commands/index.js';
import { sectionFor } from '../../src/config/apply.js';
import { loadConfig } from '../../src/config/load.js';
import { commandSpecs } from '../../src/config/options.js';
import { validateConfig } from '../../src/config/validate.js';
import { tempDir } from '../helpers/tmp.js';

const specs = commandSpecs(commands);
const run = specs.find((s) => s.name === 'run')!;
const problems = (data: unknown): string[] => {
  const checked = validateConfig(data, specs);
  return 'problems' in checked ? checked.problems : [];
};

describe('a config value is checked as its flag is, naming the key', () => {
  it('numbers by the flag\'s rule and message; a quoted number is said', () => {
    expect(problems({ run: { concurrency: 0 } })).toEqual(['run.concurrency: --concurrency must be a whole number >= 1, got 0']);
    expect(problems({ run: { 'min-accuracy': 80 } })).toEqual(['run.min-accuracy: --min-accuracy must be a share between 0 and 1, got 80']);
    expect(problems({ run: { timeout: '5000' } })).toEqual(['run.timeout: --timeout must be a whole number of ms from 1 to 2147483647, got the string "5000" (write a number without quotes)']);
  });

  it('choices, booleans and strings', () => {
    expect(problems({ run: { 'fail-on': 'regresion' } })).toEqual(['run.fail-on: --fail-on must be one of regression, significant-regression, got "regresion" (did you mean regression?)']);
    expect(problems({ run: { quiet: 'yes' } })).toEqual(['run.quiet: --quiet takes true or false, got the string "yes"']);
    expect(problems({ run: { dataset: 3 } })).toEqual(['run.dataset: --dataset takes a string, got 3']);
  });

  it('an unknown key is named, with the key meant: a typo, camelCase, another command\'s option, a top-level option, a command', () => {
    expect(problems({ run: { 'fail-onn': 'regression' } })).toEqual(['run.fail-onn: unknown key (did you mean "fail-on"?)']);
    expect(problems({ run: { baseUrl: 'http://x' } })).toEqual(['run.baseUrl: unknown key (did you mean "base-url"?)']);
    expect(problems({ compare: { baseline: 'b' } })).toEqual(['compare.baseline: unknown key: --baseline is an option of run, not of compare']);
    expect(problems({ dataset: 'faq.csv' })).toEqual(['dataset: unknown key: options go under their command, e.g. {"run": {"dataset": ...}} (--dataset is an option of run, validate, rescore, label)']);
    expect(problems({ compar: {} })).toEqual(['compar: unknown key (did you mean "compare"?)']);
    expect(problems({ profiles: { pr: { rnu: {} } } })).toEqual(['profiles.pr.rnu: unknown key (did you mean "run"?)']);
    expect(problems({ run: [] })).toEqual(['run: expected an object of options ({"flag-name": value}), got []']);
  });

  it('no secret: the agent code, a URL with credentials or a query string; no --resume', () => {
    expect(problems({ run: { 'agent-code': 's3cret' } })[0]).toBe(
      'run.agent-code: unknown key: the agent code is a secret and is never read from a config file (it is kept beside the code): set ANSWER_AGENT_CODE, or give --agent-code-file FILE',
    );
    expect(problems({ run: { 'base-url': 'https://user:pw@answers.example.com' } })).toEqual([
      'run.base-url: a URL with credentials or a query string is a secret and is never read from a config file: give --base-url on the command line',
    ]);
    expect(problems({ profiles: { n: { run: { 'base-url': 'https://answers.example.com/?key=1' } } } })[0]).toMatch(/^profiles\.n\.run\.base-url: a URL with credentials/);
    expect(problems({ run: { 'base-url': 'https://answers.example.com' } })).toEqual([]);
    expect(problems({ run: { resume: 'reports/x' } })).toEqual(['run.resume: --resume says what one command line does; give it there, not in a config file']);
  });
});

describe('loadConfig and sectionFor', () => {
  const dir = tempDir('answer-eval-config-');

  it('finds answer-eval.config.json in the working directory; paths relative to the file, as the command line would give them', async () => {
    const project = join(dir, 'project');
    mkdirSync(join(project, 'ci'), { recursive: true });
    writeFileSync(join(project, 'answer-eval.config.json'), JSON.stringify({ run: { dataset: 'datasets/faq.csv', out: '/abs/out', concurrency: 4 }, profiles: { pr: { run: { concurrency: 2, baseline: 'base' } } } }));
    const loaded = (await loadConfig(undefined, project, specs))!;
    expect(loaded.file).toBe('answer-eval.config.json');
    expect(sectionFor(loaded, run, undefined, project)).toEqual({ dataset: 'datasets/faq.csv', out: '/abs/out', concurrency: 4 });
    expect(sectionFor(loaded, run, 'pr', project)).toEqual({ dataset: 'datasets/faq.csv', out: '/abs/out', concurrency: 2, baseline: 'base' });
    // from a subdirectory, given with --config ../answer-eval.config.json
    const given = (await loadConfig('../answer-eval.config.json', join(project, 'ci'), specs))!;
    expect(given.file).toBe('../answer-eval.config.json');
    expect(sectionFor(given, run, 'pr', join(project, 'ci'))).toMatchObject({ dataset: '../datasets/faq.csv', baseline: '../base' });
    expect(() => sectionFor(loaded, run, 'nightly', project)).toThrow('--profile nightly: answer-eval.config.json has no such profile (it has pr)');
    expect(() => sectionFor(loaded, run, 'pt', project)).toThrow('did you mean pr?');
    expect(await loadConfig(false, project, specs)).toBeUndefined();
    expect(await loadConfig(undefined, join(project, 'ci'), specs)).toBeUndefined();
  });

  it('YAML too; two config files, JSON or YAML errors, a missing --config and a huge file are ConfigErrors naming the file', async () => {
    const yaml = join(dir, 'yaml');
    mkdirSync(yaml);
    writeFileSync(join(yaml, 'answer-eval.config.yaml'), '# the gates of the pull request\nrun:\n  min-accuracy: 0.8\n  fail-on: regression\n');
    expect((await loadConfig(undefined, yaml, specs))!.config.commands).toEqual({ run: { 'min-accuracy': 0.8, 'fail-on': 'regression' } });
    writeFileSync(join(yaml, 'answer-eval.config.json'), '{}');
    await expect(loadConfig(undefined, yaml, specs)).rejects.toThrow(`answer-eval.config.json and answer-eval.config.yaml are both in ${yaml}: keep one of them`);
    writeFileSync(join(dir, 'bad.json'), '{\n  "run": {\n    "concurrency": 4,\n  }\n}\n');
    await expect(loadConfig('bad.json', dir, specs)).rejects.toThrow(/^bad\.json: not JSON \(line 4, column 3\)/);
    // JSON.parse would keep the last of two equal keys: named, as YAML's are
    writeFileSync(join(dir, 'twice.json'), '{"run": {"dataset": "nope.csv",\n  "dataset": "ok.csv"}}\n');
    await expect(loadConfig('twice.json', dir, specs)).rejects.toThrow('twice.json:2:3: the key "dataset" is given twice in the same object (JSON would keep only the last): give each key once');
    writeFileSync(join(dir, 'bad.yml'), 'run:\n  concurrency: 4\n concurrency: 5\n');
    await expect(loadConfig('bad.yml', dir, specs)).rejects.toThrow(/^bad\.yml:3:\d+: not valid YAML/);
    writeFileSync(join(dir, 'typo.yml'), 'run:\n  concurency: 4\n');
    await expect(loadConfig('typo.yml', dir, specs)).rejects.toThrow('typo.yml: run.concurency: unknown key (did you mean "concurrency"?)');
    await expect(loadConfig('missing.json', dir, specs)).rejects.toThrow('--config missing.json: no such file');
    writeFileSync(join(dir, 'huge.json'), `{"run": {"dataset": "${'x'.repeat(2 * 1024 * 1024)}"}}`);
    await expect(loadConfig('huge.json', dir, specs)).rejects.toThrow('huge.json: is larger than 1 MiB');
    await expect(loadConfig('/dev/zero', dir, specs)).rejects.toThrow('/dev/zero: not a regular file');
  });
});
