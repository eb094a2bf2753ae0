import { parse, type TestSuites } from 'junit2json';
import { describe, expect, it } from 'vitest';
import { renderString } from '../../src/report/formats.js';
import { HOSTILE, makeReport } from '../helpers/report-fixture.js';

describe('junit.xml', () => {
  it('is read by junit2json: one testcase per labeled question, failures and errors counted', async () => {
    const report = makeReport(150);
    // a control character is illegal in XML 1.0: it must be dropped, not break the file
    report.results[0]!.question = `bell\u0007 ${HOSTILE.script} \uD800 ${HOSTILE.unicode}`;
    const xml = renderString('junit', report);
    const parsed = (await parse(xml)) as TestSuites;
    expect(parsed.tests).toBe(report.results.length - report.summary.outcomes.unlabeled);
    const o = report.summary.outcomes;
    const labeled = report.results.length - o.unlabeled;
    const suite = parsed.testsuite![0]!;
    expect(suite.tests).toBe(labeled);
    expect(suite.failures).toBe(o.wrong + o.abstained + o.fallback_missed);
    expect(suite.errors).toBe(o.error);
    const cases = suite.testcase!;
    expect(cases).toHaveLength(labeled);
    expect(cases.filter((c) => c.failure).length).toBe(o.wrong + o.abstained + o.fallback_missed);
    expect(cases.filter((c) => c.error).length).toBe(o.error);
    const first = cases.find((c) => c.name?.startsWith(`${report.results[0]!.id}:`))!;
    expect(first.name).toContain(`bell ${HOSTILE.script}`);
    expect(first.name).toContain(HOSTILE.unicode);
    expect(first.classname).toBe(`answer-eval.${report.results[0]!.tags[0]}`);
    const wrong = report.results.find((r) => r.outcome === 'wrong')!;
    const failure = cases.find((c) => c.name?.startsWith(`${wrong.id}:`))!.failure![0]!;
    expect(failure.type).toBe('wrong');
    expect(failure.message).toBe(`wrong: ${wrong.reason}`);
    expect(wrong.reason).toContain(`expected label "${wrong.expected.label![0]}"; top-1 is #`);
    expect(xml).not.toContain('\u0007');
  });

  it('escapes attribute and text content', () => {
    const report = makeReport(40);
    const xml = renderString('junit', report);
    expect(xml).not.toContain('<script>');
    expect(xml).not.toContain('<img');
    expect(xml).toContain('&lt;script&gt;');
  });
});
