import { describe, expect, it } from 'vitest';
import { compareReports } from '../../src/compare/compare.js';
import { renderCompareConsole } from '../../src/compare/render/console.js';
import { renderCompareHtml as htmlChunks } from '../../src/compare/render/html/index.js';
import { renderCompareJson } from '../../src/compare/render/json.js';
import { renderCompareMarkdown } from '../../src/compare/render/markdown.js';
import { ComparisonSchema } from '../../src/compare/schema.js';
import { md as summaryMd } from '../../src/report/markdown.js';
import { comparisonWithVerdict, judge } from '../../src/gate/verdict.js';
import { listedChanges } from '../../src/compare/write.js';
import type { Comparison } from '../../src/compare/schema.js';
import { answer, FILES, report, result } from './fixtures.js';

const XSS = '<script>window.__xss=1</script>';
const IMG = '<img src=x onerror="window.__xss=2">';
const hostile = (seq: number) => answer(seq, 80, { answer: `${XSS} answer | ${seq} ${IMG}`, label: `l|${seq}` });

const base = report([
  result('fixed-1', 'wrong', 3),
  result(`broken ${XSS}`, 'correct', 1, 90, { question: `What ${IMG} | pipes?`, tags: [`t${XSS}`], answers: [hostile(1), answer(2, 10)] }),
  result('same', 'correct', 1),
]);
const head = report([
  result('fixed-1', 'correct', 1),
  result(`broken ${XSS}`, 'wrong', 2, 90, { question: `What ${IMG} | pipes?`, tags: [`t${XSS}`], answers: [hostile(2), answer(1, 10)] }),
  result('same', 'correct', 1),
]);
const c = compareReports(base, head, { files: FILES, resamples: 100 });
const renderCompareHtml = (comparison: Comparison): string => [...htmlChunks(comparison, listedChanges(comparison))].join('');

describe('compare.json and compare.md', () => {
  it('warns in every format when a side is a partial run: what it did not ask is counted as added, judged by no gate', () => {
    const partialBase = report([result('same', 'correct', 1)]);
    partialBase.run = { ...partialBase.run, status: 'partial', stopReason: 'interrupted (SIGINT)' };
    const p = compareReports(partialBase, head, { files: FILES, resamples: 50 });
    const warning = `the base run (${FILES.base}) is PARTIAL: it stopped before asking every question, and those it did not ask are counted as added, judged by no regression gate`;
    expect(renderCompareConsole(p)).toContain(`  warning: ${warning}`);
    expect(renderCompareMarkdown(p)).toContain(`⚠️ ${summaryMd(warning, 600)}`);
    expect(renderCompareHtml(p)).toContain(`<div class="forced">${warning}`);
    expect(renderCompareConsole(c)).not.toContain('PARTIAL');
  });

  it('compare.json round-trips through its schema', () => {
    expect(ComparisonSchema.parse(JSON.parse(renderCompareJson(c)))).toEqual(c);
    expect(c.schemaVersion).toBe('3.4');
    expect(c.tool.name).toBe('answer-eval');
  });

  it('escapes pipes, HTML, formatting and mentions in Markdown', () => {
    // one escaper for summary.md, compare.md and trend.md
    expect(summaryMd('a|b <i>x</i> *y* @team\nz #12 GH-3')).toBe('a\\|b &lt;i&gt;x&lt;/i&gt; \\*y\\* @\u200bteam z \\#\u200b12 GH-\u200b3');
    const md = renderCompareMarkdown(c);
    expect(md).not.toMatch(/#\d|@[A-Za-z0-9]/); // the top-1 answers' "(#12, score)" included
    expect(md).not.toContain('<script>');
    expect(md).not.toContain('<img');
    expect(md).toContain('### Broken (1)');
    expect(md.indexOf('### Broken')).toBeLessThan(md.indexOf('### Fixed'));
    // every table row has the same number of unescaped pipes as its header
    for (const line of md.split('\n').filter((l) => l.startsWith('| broken'))) expect(line.replace(/\\\|/g, '').split('|')).toHaveLength(6);
  });

  it('compare.md counts every question of a class when compare.json lists the first ones, and groups the drift by entry', () => {
    const many = (outcome: 'correct' | 'wrong', score: number) => Array.from({ length: 40 }, (_, i) => result(`q${i}`, outcome, outcome === 'correct' ? 1 : 2, score + (i % 3)));
    const big = compareReports(report([...many('correct', 90), result('d', 'correct', 1, 50)]), report([...many('wrong', 80), result('d', 'correct', 1, 40)]), { files: FILES, resamples: 50, listLimit: 35 });
    expect(big.questions.broken).toHaveLength(35);
    const md = renderCompareMarkdown(big);
    expect(md).toContain('### Broken (40)');
    expect(md).toContain('… and 10 more (see compare.html).');
    expect(md).toContain('### Score drift (1): same top-1, score moved; by entry');
    expect(md).toContain('| label-1 | 1 | 0 / 1 | −10 | −10 … −10 … −10 |');
  });

  it('prints a short console summary naming the broken questions', () => {
    const text = renderCompareConsole(c);
    expect(text).toContain('broken 1  fixed 1  top-1 changed 0');
    expect(text).toContain(`broken: broken ${XSS} (correct -> wrong)`);
  });
});

describe('changed question sets and the verdict in every compare format', () => {
  const edited = result(`e ${XSS}`, 'correct', 1, 90, { question: `old ${IMG}` });
  const b = report([edited, result('kept', 'correct'), result('gone', 'correct')]);
  const h = report([{ ...edited, question: `new ${IMG} | text`, outcome: 'wrong' }, result('kept', 'wrong'), result('new', 'correct')]);
  const comparison = compareReports(b, h, { files: FILES, resamples: 50 });
  const verdict = judge(h.summary, comparison, { quality: {}, regression: { failOn: 'regression' } });
  const gated = comparisonWithVerdict(comparison, verdict);

  it('every header says how many questions are common, added, removed and changed', () => {
    expect(comparison.counts).toMatchObject({ common: 1, added: 1, removed: 1, changed: 1, broken: 1 });
    const sets = '1 common, 1 added, 1 removed, 1 changed (question or expectation edited)';
    expect(renderCompareConsole(gated)).toContain(`questions: ${sets}`);
    expect(renderCompareMarkdown(gated)).toContain(`Questions: ${sets}; classes, statistics, metric deltas and regression gates use the 1 common questions`);
    expect(renderCompareHtml(gated)).toContain(`<p>Questions: ${sets}<br>`);
    expect(JSON.parse(renderCompareJson(gated)).counts).toMatchObject({ common: 1, added: 1, removed: 1, changed: 1 });
  });

  it('lists changed questions apart, both versions, escaped', () => {
    const md = renderCompareMarkdown(gated);
    expect(md).toContain('### Changed questions, not compared (1)');
    expect(md).not.toContain('<img');
    // compare.html holds them in its compressed data (html.browser.test.ts reads them in the page): no markup from the data
    const html = renderCompareHtml(gated);
    expect(html).not.toContain(IMG);
    expect(html).not.toContain('<img');
    expect(renderCompareConsole(gated)).toContain(`changed: e ${XSS} (question edited; not compared)`);
  });

  it('compare.md opens on the verdict, compare.html on a banner, compare.json holds it', () => {
    expect(renderCompareMarkdown(gated).split('\n')[0]).toBe('**❌ answer-eval: 1 of 1 gate FAILED**: 1 broken question (kept) with --fail-on regression');
    expect(renderCompareHtml(gated)).toMatch(/<body>\n<div class="verdict fail" role="status">/);
    expect(ComparisonSchema.parse(JSON.parse(renderCompareJson(gated))).gates).toEqual(verdict);
    // without gates: no verdict anywhere
    expect(renderCompareMarkdown(comparison).split('\n')[0]).toBe('## answer-eval: compare');
    expect(renderCompareHtml(comparison)).not.toContain('class="verdict');
  });
});
