import { mkdirSync, writeFileSync } from 'node:fs';
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
