import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { toWindows1252 } from '../../src/util/windows-1252.js';
import { runCli } from '../helpers/cli.js';
import { questionOf, startRawServer, type RawReply, type RawServer } from '../helpers/raw-server.js';
import { item } from '../helpers/spec-server.js';
import { filesUnder, tempDir, writeTemp } from '../helpers/tmp.js';
import { embeddedPageText } from '../helpers/page-data.js';

// Every secret the user gives is a secret (issue 25, classes 1-3 and 10; issue 24, point 9). A hostile service echoes
// back the agent code, the password of --base-url, a token of its query and the Basic value made from them, each in
// every form it can: raw, URL-encoded (either case, as windows-1252 bytes too), HTML references (named, decimal,
// hex), JSON \u escapes, windows-1252 bytes with and without a charset, UTF-8 read as Latin-1, UTF-16, in an error
// body, a redirect's Location, a content-type header. The built CLI runs against it; no file of the run (report.html's
// packed page data included) nor its output holds any of them in any form. Then: a code of 5,000 characters; a code
// that is an ordinary word of the questions (kept as the user wrote them, masked in the answers, said); a code of 2.

const dir = tempDir('answer-eval-every-secret-');
const servers: RawServer[] = [];
afterAll(() => Promise.all(servers.map((s) => s.close())));

const CODE = 'Zq8wCafé-k3Vx'; // Latin-1: a header may carry it
const PASSWORD = 'Pw9kGrüße-7Qz';
const TOKEN = 'Tk4m+Xw/9Lp=';
const BASIC = Buffer.from(`alice:${PASSWORD}`, 'utf8').toString('base64');
const SECRETS = [
  { name: 'agent code', value: CODE, mask: '<agent code>' },
  { name: 'password', value: PASSWORD, mask: '<password>' },
  { name: 'query token', value: TOKEN, mask: '<query value>' },
  { name: 'Basic value', value: BASIC, mask: '<credentials>' },
];
const baseUrl = (server: RawServer): string => `${server.url.replace('http://', `http://alice:${encodeURIComponent(PASSWORD)}@`)}/x?lang=en&token=${encodeURIComponent(TOKEN)}`;

/** Raw invisible characters inside (a soft hyphen, a zero-width space), as a service that hyphenates writes them. */
const soft = (s: string): string => `${s.slice(0, 3)}\u00ad${s.slice(3, 7)}\u200b${s.slice(7)}`;
const base64 = (s: string): string => Buffer.from(s, 'utf8').toString('base64');
const hex = (s: string, lower = false): string => [...Buffer.from(s, 'utf8')].map((b) => `%${b.toString(16).padStart(2, '0')}`).map((h) => (lower ? h : h.toUpperCase())).join('');
const NAMED: Record<string, string> = { é: '&eacute;', ü: '&uuml;', ß: '&szlig;', '+': '&plus;', '/': '&sol;', '=': '&equals;' };

/** The forms a service writes a secret back in, as text inside a JSON string (those marked raw go in unescaped). */
const TEXT_FORMS: [string, (s: string) => string, 'raw'?][] = [
  ['raw', (s) => s],
  ['URL-encoded', (s) => encodeURIComponent(s)],
  ['URL-encoded, every byte, upper case', (s) => hex(s)],
  ['URL-encoded, every byte, lower case', (s) => hex(s, true)],
  ['URL-encoded as windows-1252', (s) => [...toWindows1252(s)!].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('')],
  ['named references', (s) => [...s].map((c) => NAMED[c] ?? c).join('')],
  ['decimal references', (s) => [...s].map((c) => `&#${c.codePointAt(0)};`).join('')],
  ['hex references', (s) => [...s].map((c) => `&#x${c.codePointAt(0)!.toString(16)};`).join('')],
  ['JSON \\u escapes', (s) => [...s].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''), 'raw'],
  ['UTF-8 read as Latin-1', (s) => Buffer.from(s, 'utf8').toString('latin1')],
  ['raw soft hyphen and zero-width space inside', soft],
  ['upper case', (s) => s.toUpperCase()],
  ['lower case', (s) => s.toLowerCase()],
  ['lower case, URL-encoded in lower case', (s) => encodeURIComponent(s.toLowerCase()).toLowerCase()],
  ['base64', base64],
  ['base64url', (s) => Buffer.from(s, 'utf8').toString('base64url')],
];

const json = { 'content-type': 'application/json' };
const answerBody = (answer: string, raw = false): string => {
  const body = JSON.stringify({ answers: [{ ...item(1, 90), answer: raw ? 'ECHO' : `echo ${answer} end` }, item(2, 10)] });
  return raw ? body.replace('ECHO', `echo ${answer} end`) : body;
};

/** Every reply of the hostile service, by question: each secret in each form, then in bytes, errors and headers. */
const REPLIES: RawReply[] = [
  ...SECRETS.flatMap(({ value }) => TEXT_FORMS.map(([, form, raw]): RawReply => ({ headers: json, body: answerBody(form(value), raw === 'raw') }))),
  ...SECRETS.flatMap(({ value }): RawReply[] => [
    // windows-1252 bytes, declared: read right, the secret in the answer
    { headers: { 'content-type': 'application/json; charset=windows-1252' }, body: toWindows1252(answerBody(value))! },
    // windows-1252 bytes, undeclared, in an error body: read as UTF-8, each non-ASCII byte a U+FFFD
    { status: 500, headers: { 'content-type': 'text/plain' }, body: toWindows1252(`upstream failed for ${value} sorry`)! },
    // UTF-8 bytes declared as Latin-1: read as `CafÃ©`
    { headers: { 'content-type': 'application/json; charset=iso-8859-1' }, body: answerBody(value) },
    // UTF-16 in an error body read as UTF-8 (a NUL beside each ASCII character), and a 200 declared as UTF-16 that is UTF-8
    { status: 502, body: Buffer.from(`bad gateway: ${value}`, 'utf16le') },
    { headers: { 'content-type': 'text/plain; charset=utf-16le' }, body: `not json ${value} at all` },
    // an error body quoting a JSON body, escaped twice
    { status: 503, headers: json, body: JSON.stringify({ error: JSON.stringify({ echo: `\\u${value.charCodeAt(0).toString(16).padStart(4, '0')}${value.slice(1)}` }) }) },
    // an HTML error page
    { status: 500, headers: { 'content-type': 'text/html' }, body: `<p>denied for ${[...value].map((c) => `&#${c.codePointAt(0)};`).join('')}</p>` },
    // a redirect with the secret in its path, and in its host
    { status: 302, headers: { location: `/login/${encodeURIComponent(value)}/next?token=${encodeURIComponent(value)}` }, body: '' },
    { status: 307, headers: { location: `http://${encodeURIComponent(value)}@evil.example/${value.replace(/[^\x21-\x7e]/g, (c) => encodeURIComponent(c))}` }, body: '' },
    // the charset of a content-type
    { headers: { 'content-type': `application/json; charset=${value}` }, body: answerBody('fine') },
    // error bodies: raw invisible characters inside, lower case, a proxy's dump of the request headers in base64
    { status: 500, headers: json, body: JSON.stringify({ error: `invalid wikiclone_code ${soft(value)}` }) },
    { status: 500, headers: { 'content-type': 'text/plain' }, body: `invalid wikiclone_code ${value.toLowerCase()}` },
    { status: 502, headers: { 'content-type': 'text/plain' }, body: `request headers: ${base64(`wikiclone_code: ${value}\r\nhost: x\r\n`)}` },
  ]),
];


/** Every file of a run, report.html's gzipped page data too, and the output. */
function textsOf(out: string, res: { stdout: string; stderr: string }): [string, string][] {
  const texts = filesUnder(out).map((f): [string, string] => [f.slice(out.length + 1), readFileSync(f, 'utf8')]);
  const html = texts.find(([f]) => f === 'report.html')?.[1];
  expect(html).toBeDefined();
  texts.push(['report.html page data', embeddedPageText(html!)]);
  return [...texts, ['stdout', res.stdout], ['stderr', res.stderr]];
}

/** A text in every form a file of the run may hold it in: raw, JSON, HTML/XML, CSV, URL-encoded. */
function writtenForms(text: string): string[] {
  const j = (s: string) => JSON.stringify(s).slice(1, -1);
  const xml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
  return [...new Set([text, j(text), j(j(text)), xml(text), xml(j(text)), text.replace(/"/g, '""'), encodeURIComponent(text)])];
}

function expectNoSecret(texts: [string, string][], secrets: readonly string[]): void {
  for (const [name, text] of texts) {
    for (const secret of secrets) {
      // the secret, and its first 5 characters: no piece of it is kept where a text was cut
      for (const needle of [...writtenForms(secret), ...writtenForms(secret.slice(0, 5))]) {
        expect(text.includes(needle), `${name} holds ${JSON.stringify(needle)} (of ${JSON.stringify(secret)})`).toBe(false);
      }
    }
  }
}

const datasetOf = (name: string, questions: string[]): string =>
  writeTemp(dir, name, questions.map((question, n) => JSON.stringify({ id: `id${n}`, question, expected_sequence: 1 })).join('\n'));

describe('every secret the user gave, echoed back in every form (hostile service, built CLI)', () => {
  it('is in no file of the run nor in its output; the masks name what stood there', async () => {
    const server = await startRawServer((req) => REPLIES[Number(questionOf(req).slice(1))]!);
    servers.push(server);
    const dataset = datasetOf('q.jsonl', REPLIES.map((_, n) => `q${n}`));
    const out = join(dir, 'every');
    const res = await runCli(['run', '-d', dataset, '--base-url', baseUrl(server), '--agent', 'demo', '-o', out, '--retries', '0', '--max-consecutive-errors', '0', '-c', '4'], {
      ANSWER_AGENT_CODE: CODE,
    });
    expect(res.code, res.stderr).toBe(0);
    // every secret reached the service
    const first = server.received[0]!;
    expect([first.headers['wikiclone_code'], first.headers['authorization'], first.url]).toEqual([
      CODE,
      `Basic ${BASIC}`,
      `/x/api/v1/answer?lang=en&token=${encodeURIComponent(TOKEN)}`,
    ]);
    // lang=en is a query value too short to be masked: said once
    expect(res.stderr.split('\n').filter((l) => l.includes('warning'))).toEqual([
      'answer-eval: warning: a query value in --base-url has fewer than 4 characters: too short to be masked, it is written as is wherever the service echoes it back (a secret this short is guessed in a few thousand tries)',
      expect.stringMatching(/^answer-eval: warning: \d+ of 116 questions \([\d.]+%\) ended in error: left out of the figures, not counted as wrong/),
    ]);
    expectNoSecret(textsOf(out, res), SECRETS.flatMap(({ value: s }) => [s, soft(s), s.toUpperCase(), s.toLowerCase(), base64(s)]));

    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as { results: { answers: { answer: string }[]; error: { message: string } | null }[] };
    SECRETS.forEach(({ mask }, k) => {
      TEXT_FORMS.forEach(([form], f) => expect(report.results[k * TEXT_FORMS.length + f]!.answers[0]!.answer, `${mask} ${form}`).toBe(`echo ${mask} end`));
    });
    const specials = report.results.slice(SECRETS.length * TEXT_FORMS.length);
    expect(specials[0]!.answers[0]!.answer).toBe('echo <agent code> end'); // windows-1252, declared
    expect(specials[1]!.error!.message).toMatch(/^HTTP 500 from .*: "upstream failed for <agent code> sorry"$/); // undeclared: U+FFFD
    expect(specials[2]!.answers[0]!.answer).toBe('echo <agent code> end'); // UTF-8 read as Latin-1
    expect(specials[7]!.error!.message).toMatch(/redirects to http:\/\/127\.0\.0\.1:\d+\/login\/<agent code>\/next\)/);
    expect(specials[10]!.error!.message).toMatch(/^HTTP 500 from .*: .*"invalid wikiclone_code <agent code>\\"}"$/);
    expect(specials[11]!.error!.message).toMatch(/^HTTP 500 from .*: "invalid wikiclone_code <agent code>"$/);
    expect(specials[12]!.error!.message).toMatch(/^HTTP 502 from .*: "request headers: d2lraWNsb25lX2NvZGU6I<agent code>DQpob3N0OiB4DQo="$/);
  });

  it('masks a code of 5,000 characters wherever it is echoed, without an error', async () => {
    const long = `${'Kq7w'.repeat(1_250)}`;
    const server = await startRawServer((req) => {
      const n = Number(questionOf(req).slice(1));
      const forms = [long, encodeURIComponent(`${long}é`), `${long.slice(0, -1)}\\u0077`];
      return n < forms.length ? { headers: json, body: answerBody(forms[n]!, n === 2) } : { status: 500, body: `no: ${long}` };
    });
    servers.push(server);
    const out = join(dir, 'long');
    const res = await runCli(['run', '-d', datasetOf('long.jsonl', ['q0', 'q1', 'q2', 'q3']), '--base-url', server.url, '--agent', 'demo', '-o', out, '--retries', '0'], { ANSWER_AGENT_CODE: long });
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).not.toMatch(/internal error|Invalid regular expression|stack/i);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as { results: { answers: { answer: string }[]; error: { message: string } | null }[] };
    expect(report.results.map((r) => r.answers[0]?.answer ?? r.error!.message.replace(/^HTTP 500 from \S+: /, ''))).toEqual([
      'echo <agent code> end',
      'echo <agent code>%C3%A9 end',
      'echo <agent code> end',
      '"no: <agent code>"',
    ]);
    for (const [name, text] of textsOf(out, res)) expect(text.includes(long.slice(0, 40)), name).toBe(false);
  });

  it('keeps a question that holds a code which is an ordinary word as written, masks its echo in the answers, and says so', async () => {
    const server = await startRawServer((req) => ({ headers: json, body: answerBody(`you asked: ${questionOf(req)}; and the code is meter`) }));
    servers.push(server);
    const out = join(dir, 'word');
    const questions = ['how do I read my meter', 'what is a smart meter?', 'pay a bill'];
    const res = await runCli(['run', '-d', datasetOf('word.jsonl', questions), '--base-url', server.url, '--agent', 'demo', '-o', out, '--retries', '0'], { ANSWER_AGENT_CODE: 'meter' });
    expect(res.code, res.stderr).toBe(0);
    const warnings = res.stderr.split('\n').filter((l) => l.startsWith('answer-eval: warning: '));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^answer-eval: warning: the agent code occurs in the text the run was given \(.*word\.jsonl:1, .*word\.jsonl:2\): .*<agent code> replaces it/);
    expect(warnings[0]).not.toMatch(/\bmeter\b/);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as { results: { question: string; answers: { answer: string }[] }[] };
    expect(report.results.map((r) => r.question)).toEqual(questions);
    expect(report.results.map((r) => r.answers[0]!.answer)).toEqual(questions.map((q) => `echo you asked: ${q.replaceAll('meter', '<agent code>')}; and the code is <agent code> end`));
  });

  it('warns, before asking, of a code too short to be masked, without quoting it', async () => {
    const server = await startRawServer(() => ({ headers: json, body: answerBody('fine') }));
    servers.push(server);
    const res = await runCli(['run', '-d', datasetOf('short.jsonl', ['q0']), '--base-url', `${server.url}/?v=1`, '--agent', 'demo', '-o', join(dir, 'short'), '--retries', '0'], { ANSWER_AGENT_CODE: 'k7' });
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toContain(
      'answer-eval: warning: the agent code has fewer than 4 characters: too short to be masked, it is written as is wherever the service echoes it back',
    );
    expect(res.stderr).toContain('answer-eval: warning: a query value in --base-url has fewer than 4 characters');
    expect(res.stderr).not.toContain('k7');
  });
});
