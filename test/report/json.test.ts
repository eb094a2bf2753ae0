import { arraySource, fromReport } from '../../src/model/source.js';
import { computeMetrics, withMetrics } from '../../src/score/metrics/index.js';
import { describe, expect, it } from 'vitest';
import { renderString } from '../../src/report/formats.js';
import { renderJson } from '../../src/report/json.js';
import type { Report } from '../../src/model/report.js';
import { HOSTILE, makeReport } from '../helpers/report-fixture.js';

/** The layout of report.json: the head indented by two, then one compact result per line, last. */
function layout(report: Report): string {
  const { results, ...head } = report;
  const open = JSON.stringify(head, null, 2).slice(0, -2);
  return results.length === 0 ? `${open},\n  "results": []\n}\n` : `${open},\n  "results": [\n${results.map((r) => `    ${JSON.stringify(r)}`).join(',\n')}\n  ]\n}\n`;
}

describe('report.json', () => {
  it('is the head, then one result per line, written a result at a time; any JSON reader reads the report back', () => {
    const report = makeReport(80);
    report.results[1] = { ...report.results[1]!, postProcessedAnswer: `${HOSTILE.quotes}\n${HOSTILE.unicode}\u2028` };
    const text = renderString('json', report);
    expect(text).toBe(layout(report));
    expect(JSON.parse(text)).toEqual(report);
    expect([...renderJson(withMetrics(fromReport(report)))].length).toBeGreaterThan(80);
  });
  it('with no results, and without metrics (computed from the results, placed where a run writes them)', () => {
    expect(renderString('json', makeReport(0))).toBe(layout(makeReport(0)));
    for (const report of [makeReport(0, { metrics: false }), makeReport(3, { metrics: false })]) {
      const { results, ...head } = report;
      const complete = { ...head, metrics: computeMetrics(arraySource(results)), results };
      expect(renderString('json', report)).toBe(layout(complete));
    }
  });
});
