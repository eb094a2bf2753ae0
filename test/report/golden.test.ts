import { createHash } from 'node:crypto';
import { gunzipSync, strFromU8 } from 'fflate';
import { describe, expect, it } from 'vitest';
import { renderString } from '../../src/report/formats.js';
import type { Report } from '../../src/report/schema.js';
import { makeReport } from '../helpers/report-fixture.js';

// Hashes of every format taken before the streaming rewrite: the bytes must not move
// (report.html: everything but the packed page data, which the browser tests check).
const sha = (text: string) => createHash('sha256').update(text).digest('hex');
/** The page data with every index resolved, so only what the page shows counts, not how it is packed. */
function shownData(html: string): unknown {
  const b64 = /<script id="page-data" type="application\/octet-stream">([A-Za-z0-9+/=]*)<\/script>/.exec(html)![1]!;
  const d = JSON.parse(strFromU8(gunzipSync(Buffer.from(b64, 'base64')))) as {
    outcomes: string[]; flags: string[]; languages: string[]; tags: string[]; answers: unknown[]; rows: unknown[][];
  };
  const answer = (ref: unknown) => (typeof ref === 'number' ? d.answers[ref] : ref);
  return {
    outcomes: d.outcomes,
    flags: d.flags,
    rows: d.rows.map((r) => {
      const list = r[9] as unknown[];
      const pairs = [];
      for (let k = 0; k < list.length; k += 2) pairs.push([answer(list[k]), list[k + 1]]);
      return [r[0], r[1], d.languages[r[2] as number], (r[3] as number[]).map((t) => d.tags[t]), d.outcomes[r[4] as number], ...r.slice(5, 9), pairs, ...r.slice(10)];
    }),
  };
}
const withoutData = (html: string) => html.replace(/<script id="page-data"[^>]*>[^<]*<\/script>/, '');

function render(report: Report): Record<string, string> {
  return {
    json: sha(renderString('json', report)),
    csv: sha(renderString('csv', report)),
    junit: sha(renderString('junit', report)),
    md: sha(renderString('md', report)),
    html: sha(withoutData(renderString('html', report))),
    htmlData: sha(JSON.stringify(shownData(renderString('html', report)))),
  };
}

describe('every format: golden bytes', () => {
  it('a report with metrics', () => expect(render(makeReport(300))).toMatchSnapshot());
  it('a report without metrics', () => expect(render(makeReport(120, { seed: 3, metrics: false }))).toMatchSnapshot());
  it('a report with no results', () => expect(render(makeReport(0))).toMatchSnapshot());
});
