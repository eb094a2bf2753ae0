import { gunzipSync, strFromU8 } from 'fflate';
import { describe, expect, it } from 'vitest';
import { pageTurn, type PageData } from '../../src/report/html/data.js';
import { renderString } from '../../src/report/formats.js';
import { conversationReport, conversationResults, HOSTILE } from '../helpers/conversation-report.js';
import { makeReport } from '../helpers/report-fixture.js';

const pageData = (html: string): PageData => {
  const b64 = /<script id="page-data" type="application\/octet-stream">([A-Za-z0-9+/=]*)<\/script>/.exec(html)![1]!;
  return JSON.parse(strFromU8(gunzipSync(Buffer.from(b64, 'base64')))) as PageData;
};

describe('report.html with conversations (rendered, without a browser)', () => {
  const html = renderString('html', conversationReport());

  it('a turn carries its place, verdict, user and checks in the page data; a single question does not', () => {
    const byId = Object.fromEntries(conversationResults().map((r) => [r.id, r]));
    expect(pageTurn(byId['meter#2']!)).toEqual(['meter', 2, 2, 1, 2, 'answer-eval-0a1b2c3d-meter', [['dialog', 'none', 'in_progress', false]], null]);
    expect(pageTurn(byId[`hostile ${HOSTILE}#1`]!)![6]).toEqual([['post-processed answer', 'contains:already answer', null, false]]);
    // not asked: the checks have no reply to judge
    expect(pageTurn(byId['outage#3']!)).toEqual(['outage', 3, 3, 2, 2, 'answer-eval-0a1b2c3d-outage', [], null]);
    expect(pageTurn(byId['q1']!)).toBeUndefined();
    const data = pageData(html);
    expect(data.verdicts).toEqual(['passed', 'failed', 'error']);
    expect(data.rows.map((r) => r.length)).toEqual([17, 18, 18, 18, 18, 18, 18, 18, 18, 18, 17, 18, 18]);
  });

  it('has a Conversations section after the overview, in the navigation with its failing count, and the script that draws its threads', () => {
    expect(html).toContain('<a href="#overview">Overview</a><a href="#conversations">Conversations (3 failing)</a><a href="#questions"');
    expect(html.indexOf('<section id="conversations">')).toBeGreaterThan(html.indexOf('<section id="overview">'));
    expect(html.indexOf('<section id="conversations">')).toBeLessThan(html.indexOf('<section id="questions">'));
    expect(html).toContain('<script data-page="report-conversations">');
    expect(html).toContain('<a href="#conversations" class="to-threads" data-verdict="failing">3 failing conversations →</a>');
  });

  it('escapes the data in what it renders itself (the failing conversations without JavaScript)', () => {
    expect(html).not.toContain(HOSTILE);
    expect(html).toContain('<td class="id">hostile &lt;img src=x onerror=&quot;window.__xss=1&quot;&gt;</td>');
  });

  it('a run without conversations has none of it: no section, no script, no styles, rows as before', () => {
    const plain = renderString('html', makeReport(20));
    expect(plain).not.toContain('id="conversations"');
    expect(plain).not.toContain('report-conversations');
    expect(plain).toContain('<script data-page="report">');
    expect(plain).not.toContain('.thread-head');
    expect(new Set(pageData(plain).rows.map((r) => r.length))).toEqual(new Set([17]));
  });
});
