import { gunzipSync, strFromU8 } from 'fflate';
import { describe, expect, it } from 'vitest';
import { pageData, type PageData } from '../../src/report/html/data.js';
import { renderHtml } from '../../src/report/html/index.js';
import { HOSTILE, makeReport } from '../helpers/report-fixture.js';

const embedded = (html: string): PageData => {
  const b64 = /<script id="page-data" type="application\/octet-stream">([A-Za-z0-9+/=]+)<\/script>/.exec(html)![1]!;
  return JSON.parse(strFromU8(gunzipSync(Buffer.from(b64, 'base64')))) as PageData;
};

describe('report.html (static checks)', () => {
  const report = makeReport(150);
  const html = renderHtml(report);

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
    expect(html.match(/<script\b/g)).toHaveLength(2);
  });

  it('embeds every question, compressed, and the data decodes to the same rows', () => {
    expect(embedded(html)).toEqual(JSON.parse(JSON.stringify(pageData(report))));
    expect(embedded(html).rows).toHaveLength(150);
  });

  it('renders a report without metrics', () => {
    const old = renderHtml(makeReport(20, { metrics: false }));
    expect(old).toContain('has no <code>metrics</code> section');
    expect(old.match(/<svg class="chart"/g)!.length).toBeGreaterThanOrEqual(4);
  });

  it('is the same for the same report', () => {
    expect(renderHtml(report)).toBe(html);
  });
});
