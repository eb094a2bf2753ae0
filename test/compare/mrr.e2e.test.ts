import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ComparisonSchema, type Comparison } from '../../src/compare/schema.js';
import { ReportSchema, type QuestionResult, type Report } from '../../src/model/report.js';
import { runCli } from '../helpers/cli.js';
import { tempDir, writeTemp } from '../helpers/tmp.js';

// compare's MRR counts the questions each report's metrics.rank counts (expected_* given, a response), in both runs:
// over the same questions it is each report's own MRR, to the last bit, whatever order each run asked them in.

const dir = tempDir('answer-eval-mrr-');
const sample = readFileSync(new URL('../../datasets/sample/questions.csv', import.meta.url), 'utf8').trimEnd().split('\n');
const [header, ...rows] = sample as [string, ...string[]];
const csv = (name: string, lines: string[]): string => writeTemp(dir, name, `${[header, ...lines].join('\n')}\n`);

const run = async (dataset: string, out: string, ...args: string[]): Promise<Report> => {
  const res = await runCli(['run', '--dataset', dataset, '-o', join(dir, out), '--format', 'json', ...args]);
  expect(res.code, res.stderr).toBe(0);
  return ReportSchema.parse(JSON.parse(readFileSync(join(dir, out, 'report.json'), 'utf8')));
};
const compare = async (base: string, head: string, out: string): Promise<{ c: Comparison; md: string; html: string }> => {
  const res = await runCli(['compare', join(dir, base, 'report.json'), join(dir, head, 'report.json'), '--out', join(dir, out), '--resamples', '200']);
  expect(res.code, res.stderr).toBe(0);
  const read = (f: string) => readFileSync(join(dir, out, f), 'utf8');
  return { c: ComparisonSchema.parse(JSON.parse(read('compare.json'))), md: read('compare.md'), html: read('compare.html') };
};

/** The rank metrics' population, by id: expected_* given and a response. */
const ranked = (r: Report): Map<string, QuestionResult> =>
  new Map(r.results.filter((q) => q.outcome !== 'error' && q.outcome !== 'skipped' && q.expected.expect === 'answer' && Object.keys(q.expected).length > 1).map((q) => [q.id, q]));
const rr = (q: QuestionResult): number => (q.rank ? 1 / q.rank : 0);

let base: Report;
let head: Report;
beforeAll(async () => {
  // the same questions, asked in the opposite order against an engine with a raised floor (fewer answers: lower ranks)
  base = await run(csv('base.csv', rows), 'base');
  head = await run(csv('head.csv', [...rows].reverse()), 'head', '--floor', '45');
}, 120_000);

describe('compare: MRR over the questions report.json ranks', () => {
  it('over the same questions, base and head are each report\'s metrics.rank.mrr, exactly; delta = head − base', async () => {
    expect(base.metrics!.rank.mrr).not.toBe(head.metrics!.rank.mrr);
    const { c, md, html } = await compare('base', 'head', 'same');
    expect(c.counts).toMatchObject({ added: 0, removed: 0, changed: 0 });
    expect(c.paired.mrr).toMatchObject({ n: base.metrics!.rank.questions, base: base.metrics!.rank.mrr, head: head.metrics!.rank.mrr });
    expect(c.paired.mrr!.n).toBe(head.metrics!.rank.questions);
    expect(c.paired.mrr!.delta).toBe(c.paired.mrr!.head! - c.paired.mrr!.base!);
    // the readable reports name the same population
    expect(md).toContain(`on ${c.paired.mrr!.n} ranked questions (with expected\\_\\*, answered in both runs)`); // Markdown-escaped
    expect(html).toContain(`on ${c.paired.mrr!.n} ranked questions (with expected_*, answered in both runs)`);
  });

  it('over different question sets, the common questions ranked in both runs, edited ones left out', async () => {
    // head2 drops every fourth row, adds one, and edits the expectation of another (changed: not compared)
    const kept = rows.filter((_, i) => i % 4 !== 1);
    const edited = kept.map((line) => (line.startsWith('q008,') ? line.replace(/,(\d+),/, (_, n: string) => `,${Number(n) + 1},`) : line));
    await run(csv('head2.csv', [...edited, 'new1,how do I pay my bill,10,,,en,billing|en']), 'head2', '--floor', '45');
    const head2 = ReportSchema.parse(JSON.parse(readFileSync(join(dir, 'head2', 'report.json'), 'utf8')));
    const { c } = await compare('base', 'head2', 'different');
    expect(c.counts.changed).toBe(1);
    const inBase = ranked(base);
    const inHead = ranked(head2);
    const common = [...inBase.keys()].filter((id) => inHead.has(id) && id !== 'q008');
    expect(c.paired.mrr!.n).toBe(common.length);
    expect(common.length).toBeLessThan(base.metrics!.rank.questions);
    const mean = (of: Map<string, QuestionResult>) => common.reduce((s, id) => s + rr(of.get(id)!), 0) / common.length;
    expect(c.paired.mrr!.base).toBeCloseTo(mean(inBase), 12);
    expect(c.paired.mrr!.head).toBeCloseTo(mean(inHead), 12);
  });
});
