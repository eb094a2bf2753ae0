import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

// Issue 41, items 8 and 9 (d, e): a hostile config file is a clear config error naming the file (exit 2), never an
// internal error, a stack trace or a Node warning, and never silently dropped or followed into a dangerous place.

const dir = tempDir('answer-eval-round4-config-');
const SAMPLE = join(process.cwd(), 'datasets/sample/questions.csv');
let n = 0;

/** A project directory holding `file` with `text`; runs `answer-eval validate` in it. */
async function validateWith(file: string, text: string, ...args: string[]) {
  const project = join(dir, `p${n++}`);
  mkdirSync(project);
  writeFileSync(join(project, file), text);
  return { project, res: await runCli(['validate', '-d', SAMPLE, ...args], {}, 60_000, { cwd: project }) };
}

const clean = (stderr: string): void => {
  expect(stderr).not.toMatch(/internal error|\n\s+at |ReferenceError|RangeError|Warning/);
};

const laughs = ['lol: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
  .concat(['b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'].map((k, i) => `${k}: &${k} [${Array(9).fill(`*${i === 0 ? 'a' : String.fromCharCode(k.charCodeAt(0) - 1)}`).join(',')}]`))
  .join('\n');
const aliases = (count: number): string =>
  `profiles:\n  p0: &p {run: {concurrency: 2}}\n${Array.from({ length: count }, (_, i) => `  q${i}: *p`).join('\n')}\n`;

describe('a YAML config that expands or resolves badly (issue 41, item 8)', () => {
  it('a billion laughs is a config error naming the file (exit 2)', async () => {
    const { res } = await validateWith('answer-eval.config.yaml', `${laughs}\n`);
    expect(res.code).toBe(2);
    clean(res.stderr);
    expect(res.stderr).toMatch(/^answer-eval: answer-eval\.config\.yaml: its aliases \(\*name\) expand to more than 100 copies/);
  });

  it('a plain config with 101 aliases is refused the same way; one with 100 is read', async () => {
    const over = await validateWith('answer-eval.config.yaml', aliases(101));
    expect(over.res.code).toBe(2);
    clean(over.res.stderr);
    expect(over.res.stderr).toMatch(/^answer-eval: answer-eval\.config\.yaml: its aliases \(\*name\) expand to more than 100 copies/);
    const at = await validateWith('answer-eval.config.yml', aliases(100));
    expect(at.res.stderr).toBe('');
    expect(at.res.code).toBe(0);
  });

  it('an alias to no anchor, one inside its own value, a tag and nesting past any sense are config errors naming the file and the place', async () => {
    const alias = await validateWith('answer-eval.config.yaml', 'run:\n  concurrency: *nope\n');
    expect([alias.res.code, alias.res.stderr]).toEqual([2, 'answer-eval: answer-eval.config.yaml:2:16: the alias *nope names no anchor (an anchor &nope must come before it)\n']);
    const circle = await validateWith('answer-eval.config.yaml', 'run: &r\n  dataset: *r\n');
    expect([circle.res.code, circle.res.stderr]).toEqual([2, 'answer-eval: answer-eval.config.yaml:2:12: the alias *r stands inside the value &r names (a circle, which no option can hold)\n']);
    const tag = await validateWith('answer-eval.config.yaml', 'run:\n  dataset: !!js/function "x"\n');
    expect(tag.res.code).toBe(2);
    clean(tag.res.stderr);
    expect(tag.res.stderr).toMatch(/^answer-eval: answer-eval\.config\.yaml:2:12: not plain YAML data: Unresolved tag: tag:yaml\.org,2002:js\/function/);
    const deep = await validateWith('answer-eval.config.yaml', `${'['.repeat(50_000)}${']'.repeat(50_000)}\n`);
    expect(deep.res.code).toBe(2);
    clean(deep.res.stderr);
    expect(deep.res.stderr).toMatch(/^answer-eval: answer-eval\.config\.yaml(:\d+:\d+)?: /);
  });
});

describe('a profile named __proto__ (issue 41, item 9d)', () => {
  it('is refused, naming it (exit 2): it is never silently dropped', async () => {
    // written as text: a JavaScript object literal would take the key for its prototype
    const { res } = await validateWith('answer-eval.config.json', `{"profiles": {"__proto__": {"validate": {"dataset": ${JSON.stringify(SAMPLE)}}}}}`);
    expect(res.code).toBe(2);
    expect(res.stderr).toBe('answer-eval: answer-eval.config.json: profiles.__proto__: a profile cannot be named "__proto__" (JavaScript takes that name for an object\'s prototype: the profile would be lost); rename it\n');
    const yaml = await validateWith('answer-eval.config.yaml', `profiles:\n  __proto__:\n    validate:\n      dataset: ${SAMPLE}\n`);
    expect(yaml.res.code).toBe(2);
    expect(yaml.res.stderr).toContain('answer-eval.config.yaml: profiles.__proto__: a profile cannot be named "__proto__"');
  });

  it('constructor and prototype are ordinary names: --profile uses them', async () => {
    const project = join(dir, 'names');
    mkdirSync(project);
    writeFileSync(join(project, 'answer-eval.config.json'), JSON.stringify({ profiles: { constructor: { validate: { dataset: SAMPLE } }, prototype: { validate: { dataset: SAMPLE } } } }));
    for (const name of ['constructor', 'prototype']) {
      const res = await runCli(['validate', '--profile', name], {}, 60_000, { cwd: project });
      expect(res.code, res.stderr).toBe(0);
      expect(res.stderr).toBe(`answer-eval: options from answer-eval.config.json (profile ${name}): --dataset\n`);
    }
  });
});

describe('an "out" of a config file that is its own directory, an ancestor of it, or / (issue 41, item 9e)', () => {
  it('is refused before anything is written, naming the file and the key (exit 2)', async () => {
    const cases: [string, Record<string, unknown>, string[]][] = [
      ['.', { run: { out: '.' } }, ['run', '-d', SAMPLE]],
      ['./', { run: { out: './' } }, ['run', '-d', SAMPLE]],
      ['..', { profiles: { pr: { run: { out: '..' } } } }, ['run', '-d', SAMPLE, '--profile', 'pr']],
      ['/', { compare: { out: '/' } }, ['compare', 'no-base.json', 'no-head.json']],
    ];
    for (const [out, config, args] of cases) {
      const project = join(dir, `out-${n++}`);
      mkdirSync(project);
      writeFileSync(join(project, 'answer-eval.config.json'), JSON.stringify(config));
      const res = await runCli(args, {}, 60_000, { cwd: project });
      const key = `${'profiles' in config ? 'profiles.pr.' : ''}${args[0]}.out`;
      expect(res.code, `${out}: ${res.stderr}`).toBe(2);
      expect(res.stderr, out).toMatch(new RegExp(`^answer-eval: answer-eval\\.config\\.json: ${key.replace(/\./g, '\\.')} ${JSON.stringify(out).replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} is (?:the directory of the config file|an ancestor of the directory of the config file|the root of the file system)`));
      expect(readdirSync(project), out).toEqual(['answer-eval.config.json']);
    }
    // the config file's directory given by its absolute path is the same directory
    const project = join(dir, 'absolute');
    mkdirSync(project);
    writeFileSync(join(project, 'answer-eval.config.json'), JSON.stringify({ run: { out: project } }));
    const res = await runCli(['run', '-d', SAMPLE], {}, 60_000, { cwd: project });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(`answer-eval.config.json: run.out ${JSON.stringify(project)} is the directory of the config file`);
    // a directory of its own beside it is fine
    writeFileSync(join(project, 'answer-eval.config.json'), JSON.stringify({ validate: { dataset: SAMPLE }, run: { out: 'reports/nightly' } }));
    expect((await runCli(['validate'], {}, 60_000, { cwd: project })).code).toBe(0);
  });
});
