import { gunzipSync, strFromU8 } from 'fflate';
import { describe, expect, it } from 'vitest';
import { renderString, REPORT_FORMATS, type ReportFormat } from '../../src/report/formats.js';
import { CONVERSATION_STYLES, STYLES } from '../../src/report/html/styles.js';
import { SCHEMA_VERSION, type QuestionResult, type Report } from '../../src/model/report.js';
import { arraySource } from '../../src/model/source.js';
import { computeMetrics } from '../../src/score/metrics/index.js';
import { summarize } from '../../src/score/summary.js';
import { judge, withVerdict } from '../../src/gate/verdict.js';
import { compareReports } from '../../src/compare/compare.js';
import { reportEdgeCases } from '../helpers/edge-cases.js';
import { conversationReport } from '../helpers/conversation-report.js';
import { makeReport } from '../helpers/report-fixture.js';
import { CoverageCounter } from '../../src/score/coverage.js';
import type { CoverageRef } from '../../src/model/coverage.js';

// Every format of a few reports, as files under test/report/golden/: a change to any report shows as a
// readable diff in review (`vitest -u` rewrites them). report.html is kept without its scripts (code, tested in
// the browser) and with its packed page data unpacked, every index resolved, so only what the page shows counts.

function shownData(html: string): unknown {
  const b64 = /<script id="page-data" type="application\/octet-stream">([A-Za-z0-9+/=]*)<\/script>/.exec(html)![1]!;
  const d = JSON.parse(strFromU8(gunzipSync(Buffer.from(b64, 'base64')))) as {
    outcomes: string[]; flags: string[]; languages: string[]; tags: string[]; categories: string[]; entries: string[]; answers: unknown[]; rows: unknown[][];
  };
  const entry = (k: unknown) => (k === -1 ? null : d.entries[k as number]);
  const answer = (ref: unknown) => (typeof ref === 'number' ? d.answers[ref] : ref);
  return {
    outcomes: d.outcomes,
    flags: d.flags,
    rows: d.rows.map((r) => {
      const list = r[9] as unknown[];
      const pairs = [];
      for (let k = 0; k < list.length; k += 2) pairs.push([answer(list[k]), list[k + 1]]);
      // a turn of a conversation carries its place and checks after the entries; a question's detail (post-processed
      // answer, what was sent, a non-json reply) comes last
      const turn = r.length > 17 ? [r[17]] : [];
      const detail = r.length > 19 ? [{ detail: r[19] }] : [];
      return [r[0], r[1], d.languages[r[2] as number], (r[3] as number[]).map((t) => d.tags[t]), d.outcomes[r[4] as number], ...r.slice(5, 9), pairs, ...r.slice(10, 14), d.categories[r[14] as number], entry(r[15]), entry(r[16]), ...turn, ...detail];
    }),
  };
}

// the style sheet is the same for every report (and one more part with conversations): named here, kept once in
// golden/styles.css; a sheet that is neither stays in the file whole
const styleSheets: Record<string, string> = { [STYLES]: 'STYLES', [STYLES + CONVERSATION_STYLES]: 'STYLES + CONVERSATION_STYLES' };

const readableHtml = (html: string): string =>
  html
    .replace(/<style>([\s\S]*?)<\/style>/, (whole, css: string) => (styleSheets[css] ? `<style>(${styleSheets[css]}: golden/styles.css)</style>` : whole))
    .replace(/<script id="page-data"[^>]*>[^<]*<\/script>/, () => `<script id="page-data">\n${JSON.stringify(shownData(html), null, 1)}\n</script>`)
    .replace(/<script data-page="([\w-]+)">[\s\S]*?<\/script>/g, (_, name: string) => `<script>(${name} page script)</script>`);

// the edge cases' knowledge base: a label and a title that must be escaped in every format, an entry without a label,
// one reachable only inside a dialogue
const EDGE_KB: CoverageRef[] = [
  ...[1, 2, 3, 4, 5, 6].map((n) => ({ sequence: n, label: `label-${n}`, title: `Entry ${n}` })),
  { sequence: 40, label: '<img src=x onerror=alert(1)>|*x*', title: '[click](javascript:alert(1)) @team #12 <script>window.__xss=1</script>' },
  { sequence: 41, label: null, title: 'Follow-up without a label', dialogueOnly: true },
];

function edgeReport(): Report {
  const results: QuestionResult[] = reportEdgeCases();
  const coverage = new CoverageCounter({ knowledgeBase: 'kb/edge.jsonl', entries: EDGE_KB, floor: 5 });
  for (const r of results) coverage.add(r);
  return {
    schemaVersion: SCHEMA_VERSION,
    tool: { name: 'answer-eval', version: '0.1.0' },
    run: {
      startedAt: '2025-01-02T03:04:05.000Z',
      finishedAt: '2025-01-02T03:04:15.000Z',
      durationMs: 10_000,
      status: 'completed',
      baseUrl: 'http://127.0.0.1:1',
      embeddedEngine: false,
      agent: 'edge',
      dataset: { path: 'edge.jsonl', sha256: 'cd'.repeat(32), questions: results.length },
      options: { concurrency: 2, timeoutMs: 1000, retries: 0, language: 'en', output: 'json', guest: true, forceSubscription: false },
    },
    summary: summarize(results),
    metrics: computeMetrics(arraySource(results)),
    coverage: coverage.result(),
    results,
  };
}

/** A run judged by four gates, one failing on a broken question whose id needs escaping in every format. */
function gatedReport(): Report {
  const run = makeReport(12, { seed: 5 });
  const as = (outcome: 'correct' | 'wrong') => run.results.map((r, i) => (i === 3 ? { ...r, id: 'q3 <b>|*x*', outcome } : r));
  const base = { ...run, results: as('correct'), summary: summarize(as('correct')) };
  const { results, ...head } = { ...run, results: as('wrong'), summary: summarize(as('wrong')), metrics: computeMetrics(arraySource(as('wrong'))) };
  const comparison = compareReports(base, { ...head, results }, { files: { base: 'baseline/report.json', head: 'report.json' }, resamples: 50 });
  const verdict = judge(head.summary, comparison, { quality: { minAccuracy: 0.1, maxErrorRate: 0.5 }, regression: { failOn: 'regression', maxBroken: 3 } });
  return { ...withVerdict(head, verdict), results };
}

const CASES: [string, () => Report][] = [
  ['fixture-40', () => makeReport(40)],
  ['no-metrics-25', () => makeReport(25, { seed: 3, metrics: false })],
  ['empty', () => makeReport(0)],
  ['edge-cases', edgeReport],
  ['gated-12', gatedReport],
  ['conversations', () => conversationReport()],
];

describe('every format: golden files', () => {
  it('report.html style sheet', async () => {
    await expect(`/* STYLES */\n${STYLES.trim()}\n\n/* CONVERSATION_STYLES */\n${CONVERSATION_STYLES.trim()}\n`).toMatchFileSnapshot('golden/styles.css');
  });

  for (const [name, make] of CASES) {
    describe(name, () => {
      const report = make();
      for (const format of Object.keys(REPORT_FORMATS) as ReportFormat[]) {
        it(REPORT_FORMATS[format].file, async () => {
          const text = renderString(format, report);
          await expect(format === 'html' ? readableHtml(text) : text).toMatchFileSnapshot(`golden/${name}/${REPORT_FORMATS[format].file}`);
        });
      }
    });
  }
});
