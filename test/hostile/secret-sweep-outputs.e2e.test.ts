import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_KEPT_BODY_CHARS } from '../../src/client/outputs.js';
import { render } from '../../src/engine/render.js';
import { mulberry32 } from '../../src/util/random.js';
import { runCli } from '../helpers/cli.js';
import { startRawServer, questionOf, type RawReply, type RawServer } from '../helpers/raw-server.js';
import { item } from '../helpers/spec-server.js';
import { filesUnder, tempDir, writeTemp } from '../helpers/tmp.js';
import { embeddedPageText } from '../helpers/page-data.js';

// secret-sweep.e2e.test.ts for the other outputs: a hostile service echoes the agent code in xml, html and text
// replies (in answers, attributes, the post-processed answer, escaped, split around the 4,096-character cut of the
// body a result keeps, in a body that is no reply), and every file of the run and its output are searched for the
// code, its escaped forms and its first 4 characters in each form.

const dir = tempDir('answer-eval-sweep-outputs-');
const servers: RawServer[] = [];
afterAll(() => Promise.all(servers.map((s) => s.close())));

const random = mulberry32(20_261_126);
const letters = (n: number): string => Array.from({ length: n }, () => 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789'[Math.floor(random() * 56)]).join('');

/** A code with the characters markup escapes (`<`, `&`, `"`, `'`), a double space and a Latin-1 letter. */
const CODE = `${letters(3)}<"${letters(2)}&'${letters(4)}  ${letters(20)}é${letters(6)}`;

function formsOf(text: string): string[] {
  const json = (s: string) => JSON.stringify(s).slice(1, -1);
  const xml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
  const xmlNumeric = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&#34;').replace(/'/g, '&#39;');
  const csv = (s: string) => s.replace(/"/g, '""');
  const collapse = (s: string) => s.replace(/\s+/g, ' ');
  const forms = new Set<string>();
  for (const base of [text, collapse(text)]) for (const f of [base, json(base), json(json(base)), xml(base), xmlNumeric(base), csv(base), json(csv(base)), xml(json(base)), encodeURIComponent(base)]) forms.add(f);
  return [...forms];
}

type Output = 'xml' | 'html' | 'text';

/** What the hostile service sends back for question n, in the output asked. */
function hostileReply(n: number, output: Output): RawReply {
  const type = { xml: 'application/xml', html: 'text/html', text: 'text/plain' }[output];
  const reply = (answers: Record<string, string>[], post?: string): RawReply => ({
    headers: { 'content-type': `${type}; charset=utf-8` },
    body: render({ ...(post !== undefined ? { post_processed_answer: post } : {}), answers }, output).body,
  });
  const cases: (() => RawReply)[] = [
    () => reply([item(1, 90, { answer: `your code: ${CODE}` })]),
    () => reply([item(1, 90, { label: CODE, theme: CODE, sub_category: CODE, context: CODE, tags: `a|${CODE}|b` })], `again ${CODE}`),
    () => reply([item(1, 90, { vendor: CODE })]),
    // the code around the cut of the body a result keeps
    () => reply([item(1, 90, { answer: `${'p'.repeat(MAX_KEPT_BODY_CHARS - 420)}${CODE} tail` })]),
    () => reply([item(1, 90, { answer: `${'p'.repeat(MAX_KEPT_BODY_CHARS - 15)}${CODE} tail` })]),
    // a body that is no reply of this output (a proxy's page, or JSON), holding the code
    () => ({ headers: { 'content-type': 'text/html' }, body: `<html><body><p>${'p'.repeat(150)}${CODE.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</p></body></html>` }),
    () => ({ headers: { 'content-type': 'application/json' }, body: JSON.stringify({ answers: [item(1, 90, { answer: CODE })] }) }),
    () => reply([item(1, 90)]),
  ];
  return cases[n % cases.length]!();
}
const COUNT = 16;



describe('the agent code never leaks from an xml, html or text reply (hostile service, built CLI)', () => {
  for (const output of ['xml', 'html', 'text'] as const) {
    it(`output=${output}: in no file of the run, nor in its output; the bodies kept hold the mask`, async () => {
      const server = await startRawServer((req) => hostileReply(parseInt(questionOf(req).slice(1), 10), output));
      servers.push(server);
      const dataset = writeTemp(dir, `q-${output}.jsonl`, Array.from({ length: COUNT }, (_, n) => JSON.stringify({ id: `id${n}`, question: `q${n}`, expected_answer: 'nothing' })).join('\n'));
      const out = join(dir, `out-${output}`);
      const res = await runCli(['run', '-d', dataset, '--base-url', server.url, '--agent', 'demo', '--output', output, '-o', out, '--max-consecutive-errors', '0', '-c', '4'], { ANSWER_AGENT_CODE: CODE });
      expect(res.code, res.stderr).toBe(0);
      const files = filesUnder(out);
      const texts: [string, string][] = [...files.map((f): [string, string] => [f.slice(out.length + 1), readFileSync(f, 'utf8')]), ['stdout', res.stdout], ['stderr', res.stderr]];
      texts.push(['report.html page data', embeddedPageText(texts.find(([name]) => name === 'report.html')![1])]);
      const needles = new Set([...formsOf(CODE), ...formsOf(CODE.slice(0, 4))]);
      for (const [name, text] of texts) {
        for (const needle of needles) expect(text.includes(needle), `${name} holds ${JSON.stringify(needle)}`).toBe(false);
      }
      const report = JSON.parse(texts.find(([name]) => name === 'report.json')![1]) as { results: { answers: { answer: string }[]; reply?: { body?: string; cut?: true } }[] };
      expect(report.results[0]!.answers[0]!.answer).toBe('your code: <agent code>');
      expect(report.results[0]!.reply!.body).toContain('<agent code>');
      expect(report.results.filter((r) => r.reply?.cut).length).toBeGreaterThan(0);
    });
  }
});
