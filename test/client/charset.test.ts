import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import type { QuestionResult } from '../../src/model/report.js';
import { runEvaluation } from '../../src/run/run.js';
import { item } from '../helpers/spec-server.js';
import { questionOf, startRawServer, type RawReply } from '../helpers/raw-server.js';
import { tempDir, writeTemp } from '../helpers/tmp.js';

// A reply is decoded with the charset its content-type declares; bytes that are not valid in it, or a charset
// nobody knows, are a protocol error naming the charset, never a wrong answer nor replacement characters.

const dir = tempDir('answer-eval-charset-');
const json = (answer: string): string => JSON.stringify({ answers: [{ ...item(1, 90), answer }] });
const latin1 = (text: string): Buffer => Buffer.from(text, 'latin1');
const utf16le = (text: string): Buffer => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
const windows1252 = (text: string): Buffer => Buffer.from(text.replace('€', '\u0080'), 'latin1'); // € is 0x80 there

const REPLIES: Record<string, RawReply> = {
  utf8: { headers: { 'content-type': 'application/json' }, body: json('Café crème €') },
  utf8Quoted: { headers: { 'content-type': 'application/json; charset="UTF-8"' }, body: json('Café crème €') },
  latin1: { headers: { 'content-type': 'application/json; charset=iso-8859-1' }, body: latin1(json('Café crème')) },
  windows1252: { headers: { 'content-type': 'application/json;charset=windows-1252' }, body: windows1252(json('Café crème €')) },
  utf16: { headers: { 'content-type': 'application/json; charset=utf-16le' }, body: utf16le(json('Café crème €')) },
  badUtf8: { headers: { 'content-type': 'application/json; charset=utf-8' }, body: latin1(json('Café crème')) },
  badUndeclared: { headers: { 'content-type': 'application/json' }, body: latin1(json('Café crème')) },
  gzipped: { headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' }, body: gzipSync(json('Café')) },
  unknown: { headers: { 'content-type': 'application/json; charset=x-klingon' }, body: json('Café') },
  bigUtf16: { headers: { 'content-type': 'application/json; charset=utf-16le' }, body: utf16le(json('x'.repeat(400))) },
  errorBody: { status: 500, headers: { 'content-type': 'text/plain; charset=x-klingon' }, body: latin1('panne: café') },
};
const names = Object.keys(REPLIES);
const server = await startRawServer((req) => REPLIES[questionOf(req)]!);
afterAll(() => server.close());

describe('reply charsets (real server)', () => {
  it('decodes with the declared charset; invalid bytes or an unknown charset are protocol errors naming it', async () => {
    const dataset = writeTemp(dir, 'charsets.jsonl', names.map((n) => JSON.stringify({ id: n, question: n, expected_sequence: 1 })).join('\n'));
    // bigUtf16 is 1,100 bytes but 550 characters: the cap counts bytes
    const { report } = await runEvaluation({ dataset, baseUrl: server.url, agent: 'a', agentCode: 'code-1234', retries: 0, maxResponseBytes: 1000, maxConsecutiveErrors: 0 });
    const byId = new Map<string, QuestionResult>(report.results.map((r) => [r.id, r]));
    const answer = (id: string) => byId.get(id)!.answers[0]?.answer;
    const error = (id: string) => byId.get(id)!.error;
    expect(answer('utf8')).toBe('Café crème €');
    expect(answer('utf8Quoted')).toBe('Café crème €');
    expect(answer('latin1')).toBe('Café crème');
    expect(answer('windows1252')).toBe('Café crème €');
    expect(answer('utf16')).toBe('Café crème €');
    expect(error('badUtf8')).toEqual({ kind: 'protocol', message: 'the body is not valid UTF-8 (content-type charset=utf-8)' });
    expect(error('badUndeclared')).toEqual({ kind: 'protocol', message: 'the body is not valid UTF-8 (no charset declared, so UTF-8)' });
    expect(error('gzipped')).toEqual({ kind: 'protocol', message: "the body is gzip-compressed (it starts with gzip's magic bytes), though no Accept-Encoding asked for it: the service or a proxy compresses unasked" });
    expect(error('unknown')).toEqual({ kind: 'protocol', message: 'the content-type declares charset="x-klingon", which is no known character encoding' });
    expect(error('bigUtf16')).toEqual({ kind: 'protocol', message: 'the response body is larger than 1000 bytes (--max-response-bytes)' });
    // an error body is only an excerpt: decoded as best it can be, the error stays the HTTP 500
    expect(error('errorBody')).toMatchObject({ kind: 'http', status: 500, message: expect.stringMatching(/^HTTP 500 from .*: "panne: caf\ufffd"$/) });
    for (const r of report.results) expect(JSON.stringify(r.answers)).not.toContain('\ufffd');
  });
});
