import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareReports } from '../../src/compare/compare.js';
import { ChangeList } from '../../src/compare/changes.js';
import { writeComparison } from '../../src/compare/write.js';
import { renderString, REPORT_FORMATS } from '../../src/report/formats.js';
import { reportHtmlLink } from '../../src/report/links.js';
import { fromReport } from '../../src/model/source.js';
import { withMetrics } from '../../src/score/metrics/index.js';
import { buildTrend } from '../../src/trend/build.js';
import { sameDayRuns, tickRuns } from '../../src/trend/render/charts.js';
import { renderTrendHtml } from '../../src/trend/render/html.js';
import { findRuns } from '../../src/trend/discover.js';
import { writeTrend } from '../../src/trend/write.js';
import { makeReport } from '../helpers/report-fixture.js';
import { tempDir } from '../helpers/tmp.js';

// The pages link each other where both exist: report.html -> compare.html (a run with --baseline), compare.html -> both
// runs' report.html, trend.html -> each run's report.html; relative links, computed by the writers from the disk.

/** A run directory with report.json, and report.html unless `html` is false; its report.json path. */
function writeRun(dir: string, startedAt: string, html = true): string {
  const report = makeReport(30, { seed: 3 });
  report.run.startedAt = startedAt;
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'report.json'), renderString('json', report));
  if (html) writeFileSync(join(dir, 'report.html'), renderString('html', report));
  return join(dir, 'report.json');
}

const hrefs = (html: string, within: RegExp): string[] => [...(within.exec(html)?.[0] ?? '').matchAll(/<a href="([^"]*)"/g)].map((m) => m[1]!);

describe('links between the pages', () => {
  it('reportHtmlLink: the report.html beside a report.json or in a run directory, relative and encoded; none without one', () => {
    const root = tempDir();
    const json = writeRun(join(root, 'runs', 'night #1'), '2026-01-01T02:00:00.000Z');
    writeRun(join(root, 'json-only'), '2026-01-01T02:00:00.000Z', false);
    expect(reportHtmlLink(json, join(root, 'out'))).toBe('../runs/night%20%231/report.html');
    expect(reportHtmlLink(join(root, 'runs', 'night #1'), join(root, 'runs', 'night #1'))).toBe('report.html');
    expect(reportHtmlLink(join(root, 'json-only', 'report.json'), root)).toBeUndefined();
  });

  it('report.html of a run compared with its baseline links its compare.html, and names the baseline', () => {
    const report = makeReport(20);
    const render = (o: Parameters<typeof REPORT_FORMATS.html.render>[1]) => [...REPORT_FORMATS.html.render(withMetrics(fromReport(report)), o)].join('');
    const html = render({ baseline: { file: 'main/report.json' } });
    expect(html).toContain('<p class="page-links"><a href="compare.html">compare.html</a>: this run against its baseline, main/report.json</p>');
    expect(render(undefined)).not.toContain('compare.html');
  });

  it('compare.html links both runs’ report.html from where it is written (or read, for a staging directory)', async () => {
    const root = tempDir();
    const base = writeRun(join(root, 'base'), '2026-01-01T02:00:00.000Z');
    const head = writeRun(join(root, 'head'), '2026-01-02T02:00:00.000Z', false);
    const [b, h] = [JSON.parse(readFileSync(base, 'utf8')), JSON.parse(readFileSync(head, 'utf8'))];
    const changes = new ChangeList();
    const c = compareReports(b, h, { files: { base, head }, resamples: 20 }, changes);
    await writeComparison(c, join(root, 'out'), changes);
    const meta = /<div class="meta">[\s\S]*?<\/div>/;
    expect(hrefs(readFileSync(join(root, 'out', 'compare.html'), 'utf8'), meta)).toEqual(['../base/report.html']); // head has no report.html
    await writeComparison(c, join(root, 'out', '.staging', 'x'), changes, { publishedIn: join(root, 'deeper', 'out') });
    expect(hrefs(readFileSync(join(root, 'out', '.staging', 'x', 'compare.html'), 'utf8'), meta)).toEqual(['../../base/report.html']);
  });

  it('trend.html links each run’s report.html; its axes tell runs of the same day apart', async () => {
    const root = tempDir();
    for (const [k, at] of ['2026-01-05T02:17:00.000Z', '2026-01-05T09:30:00.000Z', '2026-01-06T02:17:00.000Z'].entries()) writeRun(join(root, 'runs', `r${k}`), at, k !== 1);
    const trend = await buildTrend(await findRuns([join(root, 'runs')]), {});
    await writeTrend(trend, join(root, 'trend'), ['html']);
    const html = readFileSync(join(root, 'trend', 'trend.html'), 'utf8');
    expect(hrefs(html, /<table class="slices" id="runs">[\s\S]*?<\/table>/)).toEqual(['../runs/r0/report.html', '../runs/r2/report.html']);
    expect(sameDayRuns(trend.runs)).toBe(true);
    const chart = /<svg class="chart"[\s\S]*?<\/svg>/.exec([...renderTrendHtml(trend)].join(''))![0];
    const axis = chart.slice(chart.lastIndexOf('<g class="axis">'));
    const labels = [...axis.matchAll(/text-anchor="middle">([^<]*)</g)].map((m) => m[1]);
    expect(labels).toEqual(['02:17', '2026-01-05', '09:30', '02:17', '2026-01-06']);
  });

  it('tickRuns labels at most `max` runs, the first and, when there is room, the last', () => {
    expect(tickRuns(3, 4)).toEqual([0, 1, 2]);
    expect(tickRuns(30, 4)).toEqual([0, 10, 20, 29]);
    expect(tickRuns(12, 5)).toEqual([0, 3, 6, 9, 11]);
  });
});
