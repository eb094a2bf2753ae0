import { describe, expect, it } from 'vitest';
import { arraySource } from '../../src/model/source.js';
import { describeExpected } from '../../src/report/describe.js';
import { renderString } from '../../src/report/formats.js';
import { computeMetrics } from '../../src/score/metrics/index.js';
import { summarize } from '../../src/score/summary.js';
import { makeReport } from '../helpers/report-fixture.js';
import { ans, res } from '../helpers/results.js';

describe('describeExpected', () => {
  it('names every expectation field a row gives, label first', () => {
    expect(describeExpected({ expect: 'answer', category: ['Billing'] })).toBe('category Billing');
    expect(describeExpected({ expect: 'answer', tag: ['refunds', 're:^pay'] })).toBe('tag refunds || re:^pay');
    expect(describeExpected({ expect: 'answer', answer: ['contains:direct debit'], label: ['pay'], category: ['Billing', 'Money'], sequence: ['4'] })).toBe(
      'label pay; sequence 4; answer "contains:direct debit"; category Billing || Money',
    );
    expect(describeExpected({ expect: 'answer' })).toBe('any knowledge answer');
    expect(describeExpected({ expect: 'fallback' })).toBe('fallback (out of scope)');
    expect(describeExpected({ expect: null })).toBe('');
  });

  it('a row that expects only a category or a tag is described as such in every report, not as "any knowledge answer"', () => {
    const results = [
      res({ id: 'cat-only', outcome: 'wrong', expected: { expect: 'answer', category: ['Billing'] }, answers: [ans(7, 40, { category: 'Shop' })] }),
      res({ id: 'tag-only', outcome: 'wrong', expected: { expect: 'answer', tag: ['refunds'] }, answers: [ans(9, 40, { tags: ['shop'] })] }),
    ];
    const { results: _, ...head } = makeReport(0);
    const report = { ...head, summary: summarize(results), metrics: computeMetrics(arraySource(results)), results };
    for (const format of ['csv', 'junit', 'md', 'html'] as const) {
      const text = renderString(format, report);
      expect(text, format).not.toContain('any knowledge answer');
      if (format !== 'html') {
        expect(text, format).toContain('category Billing');
        expect(text, format).toContain('tag refunds');
      }
    }
  });
});
