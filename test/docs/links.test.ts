import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, extname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { anchorsOf, githubSlug, linksOf } from '../helpers/markdown.js';

// The docs a newcomer reads (issue 27 point 3): a short README, the reference in docs/, no dead relative link.

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const read = (path: string): string => readFileSync(join(ROOT, path), 'utf8');
const mdIn = (dir: string): string[] => readdirSync(join(ROOT, dir)).filter((f) => f.endsWith('.md')).map((f) => `${dir}/${f}`);
/** Every Markdown page of the repository a reader follows links through. */
const PAGES = ['README.md', 'BENCHMARKS.md', 'datasets/sample/README.md', ...mdIn('docs')];
/** The example files, whose comments name docs pages. */
const EXAMPLES = (function walk(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(`${dir}/${e.name}`) : [`${dir}/${e.name}`]));
})('examples');

const anchorCache = new Map<string, Set<string>>();
const anchorsIn = (file: string): Set<string> => {
  if (!anchorCache.has(file)) anchorCache.set(file, anchorsOf(readFileSync(file, 'utf8')));
  return anchorCache.get(file)!;
};

/** What is wrong with a relative link of `page` (a path from ROOT), or undefined when it leads somewhere. */
function problemOf(page: string, target: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return undefined; // https:, mailto:: not a file of the repository
  if (target.startsWith('/')) return 'an absolute path (GitHub and the package read it from another root): write it relative to the page';
  const [path = '', anchor] = target.split('#', 2) as [string, string | undefined];
  const file = path === '' ? join(ROOT, page) : resolve(dirname(join(ROOT, page)), decodeURIComponent(path));
  const inside = relative(ROOT, file);
  if (inside.startsWith(`..${sep}`) || inside === '..') return `leaves the repository (${inside}): it is dead on GitHub and in the package`;
  if (!existsSync(file)) return `no such file: ${inside}`;
  if (anchor === undefined || statSync(file).isDirectory() || extname(file) !== '.md') return undefined;
  return anchorsIn(file).has(anchor) ? undefined : `no heading of ${inside} has the anchor #${anchor}`;
}

describe('GitHub anchors (github-slugger rules)', () => {
  it('lower case, punctuation dropped, each space a dash; a repeated heading gets -1, -2', () => {
    expect(githubSlug('Config file: answer-eval.config.json')).toBe('config-file-answer-evalconfigjson');
    expect(githubSlug('Repeated askings: run --repeat')).toBe('repeated-askings-run---repeat');
    expect(githubSlug('json (`application/json`)')).toBe('json-applicationjson');
    expect(githubSlug("The pages' scripts")).toBe('the-pages-scripts');
    expect(githubSlug('`conversations.jsonl` — sample dialogues (15 conversations)')).toBe('conversationsjsonl--sample-dialogues-15-conversations');
    expect(githubSlug('2.1 Answer request, 2.2 question object')).toBe('21-answer-request-22-question-object');
    expect(githubSlug('expect_post_processed & Übersicht')).toBe('expect_post_processed--übersicht');
    expect([...anchorsOf('# A\n## Notes\n```sh\n# not a heading\n```\n### Notes\n## Notes-1\n## Notes\n<a id="x"></a>')]).toEqual(['a', 'notes', 'notes-1', 'notes-1-1', 'notes-2', 'x']);
  });

  it('a link is dead when it leaves the repository, names no file, or an anchor no heading has', () => {
    expect(problemOf('docs/engine.md', '../../shared/spec/answer-service.md')).toMatch(/^leaves the repository/);
    expect(problemOf('README.md', 'docs/nowhere.md')).toBe('no such file: docs/nowhere.md');
    expect(problemOf('README.md', 'docs/cli.md#no-such-heading')).toBe('no heading of docs/cli.md has the anchor #no-such-heading');
    expect(problemOf('docs/cli.md', '#secrets')).toBeUndefined();
    expect(problemOf('docs/cli.md', '../examples/')).toBeUndefined();
    expect(problemOf('docs/cli.md', 'https://example.com/x#y')).toBeUndefined();
  });

  it('finds links outside code only, with their lines', () => {
    const md = 'see [a](a.md#x) and ![b](b.png)\n`[not](c.md)`\n```\n[not](d.md)\n```\n[ref]: e.md\n<a href="f.md">f</a>';
    expect(linksOf(md)).toEqual([
      { target: 'a.md#x', line: 1 },
      { target: 'b.png', line: 1 },
      { target: 'e.md', line: 6 },
      { target: 'f.md', line: 7 },
    ]);
  });
});

describe('the docs', () => {
  it.each(PAGES)('every relative link of %s leads to a file, and every #anchor to a heading', (page) => {
    const links = linksOf(read(page));
    expect(links.length).toBeGreaterThan(0);
    const dead = links.flatMap(({ target, line }) => {
      const problem = problemOf(page, target);
      return problem === undefined ? [] : [`${page}:${line}: (${target}) ${problem}`];
    });
    expect(dead).toEqual([]);
  });

  it("the examples' comments name docs pages and anchors that exist", () => {
    const named = EXAMPLES.flatMap((file) =>
      read(file)
        .split('\n')
        .flatMap((line, i) => (/(?:^|\s)#\s/.test(line) ? [...line.matchAll(/\b(docs\/[\w.-]+\.md(?:#[\w-]+)?)/g)].map((m) => ({ file, line: i + 1, target: m[1]! })) : [])),
    );
    expect(named.length).toBeGreaterThan(0);
    expect(named.flatMap(({ file, line, target }) => (problemOf('README.md', target) === undefined ? [] : [`${file}:${line}: ${target}: ${problemOf('README.md', target)}`]))).toEqual([]);
  });

  it('the README is at most 300 lines, and every page of docs/ is linked from it or from docs/README.md', () => {
    const readme = read('README.md');
    expect(readme.split('\n').length - (readme.endsWith('\n') ? 1 : 0)).toBeLessThanOrEqual(300);
    const linked = new Set(
      [...linksOf(readme).map((l) => l.target.split('#')[0]!), ...linksOf(read('docs/README.md')).map((l) => `docs/${l.target.split('#')[0]!}`)].map((t) => t.replace(/^docs\/\.\.\//, '')),
    );
    expect(mdIn('docs').filter((page) => !linked.has(page) && page !== 'docs/README.md')).toEqual([]);
  });

  it("the README's quick start is the two commands, and its config excerpt is part of the example file", () => {
    const readme = read('README.md');
    const quickStart = /## Quick start\n\n```sh\n([\s\S]*?)\n```/.exec(readme)![1]!;
    const commands = quickStart.split('\n').map((l) => l.replace(/#.*$/, '').trim()).filter((l) => l !== '');
    expect(commands).toEqual(['npm install && npm start', 'npm test']);
    const excerpt = JSON.parse(/```json\n([\s\S]*?)\n```/.exec(readme)![1]!) as unknown;
    const example = JSON.parse(read('examples/answer-eval.config.json')) as unknown;
    expect(example).toMatchObject(excerpt as object);
  });
});
