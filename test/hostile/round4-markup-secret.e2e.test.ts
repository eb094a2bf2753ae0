import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { render } from '../../src/engine/render.js';
import { runCli } from '../helpers/cli.js';
import { questionOf, startRawServer, type RawReply } from '../helpers/raw-server.js';
import { item } from '../helpers/spec-server.js';
import { filesUnder, tempDir, writeTemp } from '../helpers/tmp.js';
import { embeddedPageText } from '../helpers/page-data.js';

// Issue 41, item 1: a hostile service echoes the agent code with markup inside it (a comment, empty tags, CDATA, a
// processing instruction, an entity beside a tag), in xml, html and text replies that parse or fail the schema, and in
// a 500 error page. No piece of the code (the text before the markup, the text after it) may reach any file of the
// run, its stdout or its stderr: the raw span that reads as the code is masked, tags included.

const dir = tempDir('answer-eval-round4-markup-');
const CODE = 'Zq7Kx9-SECRET-4fW2pL';
const HEAD = CODE.slice(0, 9); // 'Zq7Kx9-SE'
const TAIL = CODE.slice(9); // 'CRET-4fW2pL'
const hex = (c: string): string => `&#x${c.codePointAt(0)!.toString(16)};`;

const xmlReply = (answer: string, extra: Record<string, string> = {}): string =>
  render({ answers: [item(1, 90, { answer: '@A@', ...extra })] }, 'xml').body.replace('@A@', answer);
const htmlReply = (answer: string, extra: Record<string, string> = {}): string =>
  render({ answers: [item(1, 90, { answer: '@A@', ...extra })] }, 'html').body.replace('@A@', answer);

/** Each question (its id) and the output it is asked in, with what the service sends back. */
const CASES: Record<string, { output: 'xml' | 'html' | 'text'; reply: RawReply }> = {
  // failing the schema (a bad sequence number): the body is kept for the reader, and quoted in the error
  xmlComment: { output: 'xml', reply: { headers: { 'content-type': 'application/xml' }, body: xmlReply(`code: ${HEAD}<!-- -->${TAIL}`, { sequence_number: 'x' }) } },
  htmlTags: { output: 'html', reply: { headers: { 'content-type': 'text/html' }, body: htmlReply(`code: ${HEAD}<b></b>${TAIL}`, { sequence_number: 'x' }) } },
  xmlCdata: { output: 'xml', reply: { headers: { 'content-type': 'application/xml' }, body: xmlReply(`<![CDATA[code: ${HEAD}]]><![CDATA[${TAIL}]]>`, { sequence_number: 'x' }) } },
  xmlPi: { output: 'xml', reply: { headers: { 'content-type': 'application/xml' }, body: xmlReply(`code: ${HEAD}<?pi x?>${TAIL}`, { sequence_number: 'x' }) } },
  htmlEntity: { output: 'html', reply: { headers: { 'content-type': 'text/html' }, body: htmlReply(`code: ${HEAD}<i class="x>y"></i>${hex(TAIL[0]!)}&#${TAIL.charCodeAt(1)};${TAIL.slice(2)}`, { sequence_number: 'x' }) } },
  // parsing: the answers are masked, the body kept masked (or withheld)
  htmlParses: { output: 'html', reply: { headers: { 'content-type': 'text/html' }, body: htmlReply(`code: ${HEAD}<span></span>${TAIL}`) } },
  textTags: { output: 'text', reply: { headers: { 'content-type': 'text/plain' }, body: `code: ${HEAD}<b></b>${TAIL}\n` } },
  // a 500 error page that puts part of the code in <b>
  page500: { output: 'xml', reply: { status: 500, headers: { 'content-type': 'text/html' }, body: `<html><body><h1>Internal error</h1><p>bad code ${HEAD}<b>${TAIL}</b></p></body></html>` } },
  // a page that is no reply, quoted in the error cut after 160 characters: the cut falls inside the code's second piece
  htmlCut: { output: 'html', reply: { headers: { 'content-type': 'text/html' }, body: `<html><body><p>${'p'.repeat(125)}${HEAD}<!-- -->${TAIL} and more</p></body></html>` } },
};

const servers: { close(): Promise<void> }[] = [];
afterAll(() => Promise.all(servers.map((s) => s.close())));



describe('a secret split by markup (issue 41, item 1)', () => {
  it('leaves no piece of the code in any file of the run, its stdout or stderr', async () => {
    const server = await startRawServer((req) => CASES[questionOf(req)]!.reply);
    servers.push(server);
    const rows = Object.entries(CASES).map(([id, c]) => `${id},${id},nothing,${c.output}`);
    const dataset = writeTemp(dir, 'q.csv', `id,question,expected_answer,output\n${rows.join('\n')}\n`);
    const out = join(dir, 'out');
    const res = await runCli(
      ['run', '-d', dataset, '--base-url', server.url, '--agent', 'demo', '-o', out, '--retries', '0', '--max-consecutive-errors', '0', '--max-error-rate', '1', '-c', '2'],
      { ANSWER_AGENT_CODE: CODE },
    );
    expect(res.stderr).not.toMatch(/internal error/i);
    expect(res.code, res.stderr).toBe(0); // no gate was asked for; the errors are allowed (--max-error-rate 1)
    const texts: [string, string][] = [...filesUnder(out).map((f): [string, string] => [f.slice(out.length + 1), readFileSync(f, 'utf8')]), ['stdout', res.stdout], ['stderr', res.stderr]];
    expect(texts.map(([name]) => name)).toEqual(expect.arrayContaining(['journal.jsonl', 'report.json', 'report.html', 'results.csv', 'junit.xml']));
    texts.push(['report.html page data', embeddedPageText(texts.find(([name]) => name === 'report.html')![1])]);
    for (const [name, text] of texts) {
      for (const piece of [CODE, HEAD, TAIL, HEAD.toLowerCase(), TAIL.slice(2)]) expect(text.includes(piece), `${name} holds ${JSON.stringify(piece)}`).toBe(false);
    }
    const report = JSON.parse(texts.find(([name]) => name === 'report.json')![1]) as { results: { id: string; error: { message: string } | null; reply?: { body?: string; withheld?: true } }[] };
    const byId = new Map(report.results.map((r) => [r.id, r]));
    // each body that held the code says so: masked where the code stood (tags included), or withheld
    for (const id of ['xmlComment', 'htmlTags', 'xmlCdata', 'xmlPi', 'htmlEntity', 'textTags']) {
      const reply = byId.get(id)!.reply!;
      expect(reply.withheld === true || reply.body!.includes('code: <agent code>'), `${id}: ${JSON.stringify(reply)}`).toBe(true);
    }
    expect(byId.get('page500')!.error!.message).toContain('bad code <agent code>');
    expect(byId.get('htmlCut')!.error!.message).toMatch(/p+(?:<|&lt;)agent code(?:>|&gt;)/);
  });
});
