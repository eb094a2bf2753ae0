import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { mulberry32 } from '../../src/util/random.js';
import { runCli } from '../helpers/cli.js';
import { startRawServer, questionOf, type RawReply, type RawServer } from '../helpers/raw-server.js';
import { item } from '../helpers/spec-server.js';
import { filesUnder, tempDir, writeTemp } from '../helpers/tmp.js';
import { embeddedPageText } from '../helpers/page-data.js';

// The agent code never leaks, in any form. A hostile service echoes the code back everywhere it can, raw and
// escaped, placed across every limit at which the client or a report cuts text (the 160-character excerpt,
// the 60-character quoted value, the 500-character error message, the report writers' 17, 40, 120 and
// 160-character truncations). The built CLI runs against it; then every file of the run and its output are
// searched for the code, its escaped forms, and every prefix of it of 4 characters or more.

const dir = tempDir('answer-eval-sweep-');
const servers: RawServer[] = [];
afterAll(() => Promise.all(servers.map((s) => s.close())));

/** Letters and digits from a seeded generator: a 4-character run of them occurs nowhere by chance. */
const random = mulberry32(20_240_611);
const letters = (n: number): string => Array.from({ length: n }, () => 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789'[Math.floor(random() * 56)]).join('');

/** Codes with `"`, `\`, `&`, `<`, a double space and Latin-1 letters, their special characters early, of lengths across the limits. */
const CODES = [
  `${letters(2)}"${letters(1)}\\&<${letters(3)}  ${letters(12)}`,
  `${letters(3)}<"${letters(2)}&\\${letters(4)}  '/%+${letters(40)}é${letters(10)}`, // over 60: longer than a quoted value
  `${letters(1)}\\"${letters(2)}  &amp;<${letters(5)}ÿß${letters(150)}"`, // over 160: longer than an excerpt
];

/** The forms a file may hold a text in: raw, JSON-escaped, XML/HTML-escaped, CSV-quoted, whitespace-collapsed, URL-encoded. */
function formsOf(text: string): string[] {
  const json = (s: string) => JSON.stringify(s).slice(1, -1);
  const xml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
  const xmlNumeric = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&#34;').replace(/'/g, '&#39;');
  const csv = (s: string) => s.replace(/"/g, '""');
  const collapse = (s: string) => s.replace(/\s+/g, ' ');
  const markdown = (s: string) => s.replace(/([\\`*_[\]#~!])/g, '\\$1');
  const forms = new Set<string>();
  for (const base of [text, collapse(text)]) {
    for (const f of [base, json(base), json(json(base)), xml(base), xmlNumeric(base), csv(base), json(csv(base)), xml(json(base)), markdown(base), encodeURIComponent(base)]) forms.add(f);
  }
  return [...forms];
}

/** What the hostile service does with question n: every place the code can go back to the client. */
function hostileReply(n: number, code: string): RawReply {
  const json = { 'content-type': 'application/json' };
  const answers = (extra: Record<string, unknown> = {}) => ({ answers: [{ ...item(1, 90), ...extra }, item(2, 10)] });
  const pad = (width: number) => 'p'.repeat(width);
  const cases: (() => RawReply)[] = [
    // answer text across the excerpt's 160 and the report's 120/160-character truncations
    () => ({ headers: json, body: JSON.stringify(answers({ answer: `${pad(150)}${code} tail` })) }),
    () => ({ headers: json, body: JSON.stringify(answers({ answer: `${pad(115)}${code}` })) }),
    // label, category and the rest across the charts' 17 and the markdown's 40 characters
    () => ({ headers: json, body: JSON.stringify(answers({ label: `${pad(10)}${code}`, category: `${pad(35)}${code}`, sub_category: code, theme: code, snippet: code, context: code, tags: `a|${code}|b`, answer_language: code })) }),
    () => ({ headers: json, body: JSON.stringify({ ...answers({ label: code }), post_processed_answer: `again? ${code}` }) }),
    // unknown fields, the code as a value and as a key, and nested
    () => ({ headers: json, body: JSON.stringify({ ...answers({ vendor: { trace: code, [code]: [code, { deeper: code }] } }), [code]: code, debug: [code] }) }),
    // the code escaped by hand in other ways: \u escapes, HTML entities inside a JSON string, URL-encoded
    () => ({ headers: json, body: JSON.stringify(answers({ answer: 'UESC' })).replace('UESC', [...code].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')) }),
    () => ({ headers: json, body: JSON.stringify(answers({ answer: code.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;'), label: encodeURIComponent(code) })) }),
    // a 200 that is not JSON, the code across the excerpt limit, its spaces changed
    () => ({ headers: json, body: `{"answers": [ broken ${pad(140)}${code.replace(/ +/g, '\n\t ')} more` }),
    () => ({ headers: { 'content-type': 'text/html' }, body: `<html><body>${pad(145)}${code.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;')}</body></html>` }),
    // a schema error whose bad value holds the code across the 60-character quoted value
    () => ({ headers: json, body: JSON.stringify(answers({ answer_score: `high ${pad(50)}${code}` })) }),
    () => ({ headers: json, body: JSON.stringify(answers({ is_dummy_answer: code })) }),
    // too deep, under a key that is the code
    () => ({ headers: json, body: JSON.stringify({ answers: [item(1, 90)] }).replace(/\}$/, `,${JSON.stringify(code)}:${'['.repeat(100)}${']'.repeat(100)}}`) }),
    // a charset label that is the code
    () => ({ headers: { 'content-type': `application/json; charset=${code}` }, body: JSON.stringify(answers()) }),
    // 5xx and 429 bodies, the code across the excerpt limit, in a Retry-After too
    () => ({ status: 500, headers: { 'content-type': 'text/plain' }, body: `proxy error: ${pad(130)} header wikiclone_code=${code}` }),
    () => ({ status: 502, headers: { 'content-type': 'text/html' }, body: `<p>bad gateway for ${code.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;')}</p>` }),
    () => ({ status: 503, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ error: 'unavailable', echo: `${pad(120)}${code}` }) }),
    () => ({ status: 429, headers: { 'retry-after': code, 'content-type': 'text/plain' }, body: `slow down ${code}` }),
    () => ({ status: 429, headers: { 'retry-after': '0' }, body: `${pad(155)}${code}` }),
    () => ({ status: 400, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `code=${encodeURIComponent(code).replace(/%20/g, '+')}&x=1` }),
    // and a healthy reply, so the run has answers too
    () => ({ headers: json, body: JSON.stringify(answers()) }),
  ];
  return cases[n % cases.length]!();
}
const COUNT = 20;



describe('the agent code never leaks, in any form (hostile service, built CLI)', () => {
  for (const [k, code] of CODES.entries()) {
    it(`code ${k + 1} (${code.length} characters): in no file of the run, nor in its output`, async () => {
      const server = await startRawServer((req) => hostileReply(parseInt(questionOf(req).slice(1), 10), code));
      servers.push(server);
      // (a question that holds the code is the user's own text, written as it is: test/hostile/every-secret.e2e.test.ts)
      const dataset = writeTemp(dir, `q${k}.jsonl`, Array.from({ length: COUNT }, (_, n) => JSON.stringify({ id: `id${n}`, question: `q${n}`, expected_sequence: 1 })).join('\n'));
      const out = join(dir, `out${k}`);
      const res = await runCli(
        // most replies are faults on purpose: --max-error-rate 1 accepts them, as a user running such a check would
        ['run', '-d', dataset, '--base-url', server.url, '--agent', 'demo', '-o', out, '--retries', '1', '--max-consecutive-errors', '0', '-c', '4', '--max-error-rate', '1'],
        { ANSWER_AGENT_CODE: code },
      );
      expect(res.code, res.stderr).toBe(0);
      expect(server.received).toHaveLength(COUNT + 5); // the 429s and 5xx asked twice: the code reached the server every time
      for (const r of server.received) expect(r.headers['wikiclone_code']).toBeDefined();

      const files = filesUnder(out);
      expect(files.map((f) => f.slice(out.length + 1)).sort()).toEqual(['journal.jsonl', 'junit.xml', 'report.html', 'report.json', 'results.csv', 'run-options.json', 'summary.md']);
      const texts: [string, string][] = [...files.map((f): [string, string] => [f.slice(out.length + 1), readFileSync(f, 'utf8')]), ['stdout', res.stdout], ['stderr', res.stderr]];
      texts.push(['report.html page data', embeddedPageText(texts.find(([name]) => name === 'report.html')![1])]);
      const needles = new Set([...formsOf(code), ...formsOf(code.slice(0, 4))]);
      for (const [name, text] of texts) {
        for (const needle of needles) expect(text.includes(needle), `${name} holds ${JSON.stringify(needle)}`).toBe(false);
      }
      // the mask took its place: the report shows where the service echoed the code
      const report = JSON.parse(texts.find(([name]) => name === 'report.json')![1]) as { results: { question: string; answers: { answer: string; label?: string }[]; error: { message: string } | null }[] };
      expect(report.results[0]!.answers[0]!.answer).toBe(`${'p'.repeat(150)}<agent code> tail`);
      expect(report.results[3]!.answers[0]!.label).toBe('<agent code>');
      expect(report.results[16]!.error!.message).toMatch(/^HTTP 429 from .*: "slow down <agent code>"$/);
    });
  }
});
