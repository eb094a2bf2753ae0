import { gunzipSync, strFromU8 } from 'fflate';
import { arraySource } from '../../src/model/source.js';
import { computeMetrics } from '../../src/score/metrics/index.js';
import { describe, expect, it } from 'vitest';
import { encodePageData, type PageAnswer, type PageData } from '../../src/report/html/data.js';
import { renderString } from '../../src/report/formats.js';
import { HOSTILE, makeReport } from '../helpers/report-fixture.js';
import { confusionList } from '../../src/report/html/sections-entries.js';
import type { Metrics } from '../../src/model/metrics.js';

const decode = (b64: string): PageData => JSON.parse(strFromU8(gunzipSync(Buffer.from(b64, 'base64')))) as PageData;
const embedded = (html: string): PageData =>
  decode(/<script id="page-data" type="application\/octet-stream">([A-Za-z0-9+/=]+)<\/script>/.exec(html)![1]!);
/** Each row's answers resolved, whether the table holds them or the row does. */
const shown = (d: PageData) => d.rows.map((r) => r[9].map((ref, k) => (k % 2 === 1 ? ref : typeof ref === 'number' ? d.answers[ref] : (ref as PageAnswer))));

describe('report.html (static checks)', () => {
  const report = makeReport(150);
  const html = renderString('html', report);

  it('references nothing outside the file', () => {
    expect(html).not.toMatch(/\b(src|href|action|srcset)\s*=\s*["']?(https?:)?\/\//i);
    expect(html).not.toMatch(/url\(|@import|<link\b|<iframe\b|<img\b/i);
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="default-src 'none';`);
  });

  it('escapes every dataset and service string in the server-rendered part', () => {
    expect(html).not.toContain(HOSTILE.script);
    expect(html).not.toContain(HOSTILE.img);
    expect(html).not.toContain('datasets/faq <&>.csv');
    expect(html).toContain('datasets/faq &lt;&amp;&gt;.csv');
    expect(html.match(/<script\b/g)).toHaveLength(2); // the page data, and the page's script (src/pages/report.ts)
  });

  it('embeds every question, compressed, and the data decodes to the same rows', () => {
    const data = embedded(html);
    expect(data.rows).toHaveLength(150);
    expect(data.rows.map((r) => [r[0], data.outcomes[r[4]], data.languages[r[2]], r[12]])).toEqual(report.results.map((r) => [r.id, r.outcome, r.language, r.line]));
    expect(data.answers.length).toBeGreaterThan(0);
    expect(shown(data).flat().every((a) => a !== undefined)).toBe(true);
  });

  it('past the cap on distinct answers, puts the answer in the row: the page shows the same', () => {
    const full = decode([...encodePageData(report.results)].join(''));
    const capped = decode([...encodePageData(report.results, { maxAnswers: 5 })].join(''));
    expect(capped.answers).toHaveLength(5);
    expect(shown(capped)).toEqual(shown(full));
  });

  it('renders an older report without metrics as if it had them: they are computed from its results', () => {
    const old = makeReport(20, { metrics: false });
    const html = renderString('html', old);
    expect(html).toBe(renderString('html', { ...old, metrics: computeMetrics(arraySource(old.results)) }));
    expect(html.match(/<svg class="chart"/g)!.length).toBeGreaterThanOrEqual(4);
  });

  it('is the same for the same report', () => {
    expect(renderString('html', report)).toBe(html);
  });
});

describe('confusion list', () => {
  it('links a count to its questions when a row writes the label in another case than the entry (Billing, billing)', () => {
    const entry = (key: string, sequence: number) => ({ key, sequence }) as unknown as Metrics['entries'][number];
    const metrics = {
      confusions: [{ expected: 'Billing', got: '2', count: 3, examples: ['q1'] }],
      entries: [entry('billing', 1), entry('payments', 2)],
    } as unknown as Metrics;
    const html = confusionList({ metrics } as unknown as Parameters<typeof confusionList>[0]);
    expect(html).toContain('<a href="#questions" class="goto" data-expected="billing" data-got="payments">3</a>');
  });
});
