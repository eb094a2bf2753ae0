import { gunzipSync, strFromU8 } from 'fflate';
import { expect } from 'vitest';
import { encodePageData as encodeCompare } from '../../src/compare/render/html/data.js';
import type { ChangeLine, Comparison } from '../../src/compare/schema.js';
import type { Report } from '../../src/model/report.js';
import { fromReport } from '../../src/model/source.js';
import { encodePageData, pageIndex } from '../../src/report/html/data.js';
import { withMetrics } from '../../src/score/metrics/index.js';
import type { PageData as ComparePageData } from '../../src/pages/compare/data.js';
import type { PageData } from '../../src/pages/report/data.js';

const unpack = <T>(chunks: Iterable<string>): T => JSON.parse(strFromU8(gunzipSync(Buffer.from([...chunks].join(''), 'base64')))) as T;

/** The page data report.html embeds for this report, unpacked as the page reads it. */
export function reportPageData(report: Report): PageData {
  const data = withMetrics(fromReport(report));
  return unpack(encodePageData(data.results, { index: pageIndex(data) }));
}

/** The page data compare.html embeds for this comparison and its changes, unpacked. */
export const comparePageData = (c: Comparison, changes: Iterable<ChangeLine>, limit?: number): ComparePageData => unpack(encodeCompare(c, changes, limit));

/** The text of the page data a written report.html embeds (gzipped JSON in base64), which a search of the file must read too. */
export function embeddedPageText(html: string): string {
  const b64 = /<script id="page-data" type="application\/octet-stream">([A-Za-z0-9+/=]*)<\/script>/.exec(html)?.[1];
  expect(b64, 'report.html embeds its page data').toBeDefined();
  return strFromU8(gunzipSync(Buffer.from(b64!, 'base64')));
}
