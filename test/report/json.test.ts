import { arraySource, fromReport } from '../../src/model/source.js';
import { computeMetrics, withMetrics } from '../../src/score/metrics/index.js';
import { describe, expect, it } from 'vitest';
import { renderString } from '../../src/report/formats.js';
import { renderJson } from '../../src/report/json.js';
import { HOSTILE, makeReport } from '../helpers/report-fixture.js';

describe('report.json', () => {
  it('is byte for byte JSON.stringify(report, null, 2) plus a newline, written a result at a time', () => {
    const report = makeReport(80);
    report.results[1] = { ...report.results[1]!, postProcessedAnswer: `${HOSTILE.quotes}\n${HOSTILE.unicode}\u2028` };
    expect(renderString('json', report)).toBe(`${JSON.stringify(report, null, 2)}\n`);
    expect([...renderJson(withMetrics(fromReport(report)))].length).toBeGreaterThan(80);
  });
  it('with no results, and without metrics (computed from the results, placed where a run writes them)', () => {
    expect(renderString('json', makeReport(0))).toBe(`${JSON.stringify(makeReport(0), null, 2)}\n`);
    for (const report of [makeReport(0, { metrics: false }), makeReport(3, { metrics: false })]) {
      const { results, ...head } = report;
      const complete = { ...head, metrics: computeMetrics(arraySource(results)), results };
      expect(renderString('json', report)).toBe(`${JSON.stringify(complete, null, 2)}\n`);
    }
  });
});
