import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendLog } from '../../src/label/log.js';
import { startLabelServer, type LabelServer } from '../../src/label/server.js';
import type { DecideRequest, Figures, LabelItem, LabelState, WriteReply } from '../../src/pages/label/data.js';
import { rescoreReport } from '../../src/rescore/rescore.js';
import { tempDir } from '../helpers/tmp.js';
import { KB, makeRun, SET_CSV } from './fixture.js';

// The label server as an attacker and as the page reach it: every request needs the token, its own Host and
// Origin; writes go only into the question set (its log first), never over a file changed on disk.

const dir = tempDir('answer-eval-label-server-');
let run: string;
let set: string;
let server: LabelServer;
let base: URL;
let token: string;

interface Reply {
  status: number;
  body: string;
  json: () => unknown;
}

/** A raw request, every header as written. */
function raw(path: string, o: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: base.port, path, method: o.method ?? 'GET', headers: { host: base.host, ...o.headers }, setHost: false }, (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode!, body: text, json: () => JSON.parse(text) as unknown }));
    });
    req.on('error', reject);
    req.end(o.body);
  });
}

/** The API as the page calls it (token, origin, JSON), with `headers` over those. */
const api = (route: string, body: unknown, headers: Record<string, string> = {}): Promise<Reply> =>
  raw(`/api/${route}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-answer-eval-token': token, origin: base.origin, ...headers }, body: JSON.stringify(body) });

async function ok<T>(route: string, body: unknown): Promise<T> {
  const res = await api(route, body);
  expect(res.status, res.body).toBe(200);
  return res.json() as T;
}

const files = (): string[] => [dir, ...['run'].map((d) => join(dir, d))].flatMap((d) => readdirSync(d).map((f) => join(d, f))).sort();
const sha = (path: string): string => createHash('sha256').update(readFileSync(path)).digest('hex');

async function start(o: { wrong?: boolean } = {}): Promise<void> {
  server = await startLabelServer({ run, kb: KB, host: '127.0.0.1', port: 0, ...o });
  base = new URL(server.url);
  token = base.searchParams.get('token')!;
}

beforeAll(async () => {
  ({ run, set } = await makeRun(dir));
  await start();
});

afterAll(() => server.close());

describe('what the server refuses', () => {
  it('the page and the API without the token, or with another: 403; the token is 256 random bits', async () => {
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await raw('/')).status).toBe(403);
    expect((await raw(`/?token=${token.slice(0, -1)}x`)).status).toBe(403);
    expect((await raw(`/?token=${token}`)).status).toBe(200);
    expect((await api('state', {}, { 'x-answer-eval-token': '' })).status).toBe(403);
    expect((await api('state', {}, { 'x-answer-eval-token': token.toUpperCase() })).status).toBe(403);
    // the token in the URL is for the page only: the API wants it in its header
    expect((await raw(`/api/state?token=${token}`, { method: 'POST', headers: { 'content-type': 'application/json', origin: base.origin }, body: '{}' })).status).toBe(403);
  });

  it('a foreign Host (DNS rebinding) or Origin, no Origin, another site: refused, token or not', async () => {
    for (const host of ['127.evil.example', `127.0.0.1.nip.io:${base.port}`, '127.0.0.1', `evil.example:${base.port}`]) {
      expect((await raw(`/?token=${token}`, { headers: { host } })).status, host).toBe(421);
      expect((await api('state', {}, { host })).status, host).toBe(421);
    }
    for (const origin of ['http://evil.example', 'null', `http://localhost:${Number(base.port) + 1}`]) expect((await api('state', {}, { origin })).status, origin).toBe(403);
    const noOrigin = await raw('/api/state', { method: 'POST', headers: { 'content-type': 'application/json', 'x-answer-eval-token': token }, body: '{}' });
    expect(noOrigin.status).toBe(403);
    expect((await api('state', {}, { 'sec-fetch-site': 'cross-site' })).status).toBe(403);
  });

  it('the API is POST only, JSON only, bodies bounded and checked', async () => {
    expect((await raw('/api/state', { headers: { 'x-answer-eval-token': token, origin: base.origin } })).status).toBe(405);
    expect((await api('state', {}, { 'content-type': 'text/plain' })).status).toBe(415);
    expect((await api('state', {}, { 'content-type': 'application/x-www-form-urlencoded' })).status).toBe(415);
    expect((await api('kb', { query: 'x'.repeat(70_000) })).status).toBe(413);
    expect((await api('decide', { revision: 'r', id: 'q1', decision: { kind: 'delete' } })).status).toBe(400);
    expect((await api('nope', {})).status).toBe(404);
    const bad = await raw('/api/state', { method: 'POST', headers: { 'content-type': 'application/json', 'x-answer-eval-token': token, origin: base.origin }, body: '{not json' });
    expect(bad.status).toBe(400);
  });

  it('the page: a strict policy (its own script and style by hash, requests to itself only), never framed', async () => {
    const res = await new Promise<Record<string, unknown>>((resolve, reject) => {
      request({ host: '127.0.0.1', port: base.port, path: `/?token=${token}`, headers: { host: base.host } }, (r) => {
        r.resume();
        resolve(r.headers);
      })
        .on('error', reject)
        .end();
    });
    expect(res['content-security-policy']).toMatch(/^default-src 'none'; style-src 'sha256-[^']+'; script-src 'sha256-[^']+'; connect-src 'self'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'$/);
    expect(res['x-frame-options']).toBe('DENY');
    expect(res['referrer-policy']).toBe('no-referrer');
  });
});

describe('labeling through the API', () => {
  it('orders the questions (most asked, then closest), writes each decision into the set, every other byte kept, and nothing else', async () => {
    const before = files();
    const state = await ok<LabelState>('state', {});
    expect(state.items.map((i) => i.id)).toEqual(['q6', 'q1', 'q8', 'q3', 'q5', 'q4', 'q7']);
    expect(state.set.column).toBe('expected_sequence');
    expect(state.revision).toBe(sha(set));
    const q8 = state.items[2]!;
    expect(q8.answers.map((a) => [a.rank, a.sequence, a.label])).toEqual([[1, 40, 'power_outage'], [2, 43, 'outage_compensation']]);

    let revision = state.revision;
    const decide = async (id: string, decision: DecideRequest['decision']): Promise<WriteReply> => {
      const reply = await ok<WriteReply>('decide', { revision, id, decision });
      revision = reply.revision;
      return reply;
    };
    await decide('q6', { kind: 'answer', sequence: 23 });
    await decide('q1', { kind: 'skip' });
    await decide('q8', { kind: 'answer', sequence: 43 });
    const last = await decide('q7', { kind: 'fallback' });
    expect(last.progress).toEqual({ labeled: 3, todo: 4, skipped: 1 });
    expect(readFileSync(set, 'utf8')).toBe(
      SET_CSV.replace('q6,can i pay in installments,,,9', 'q6,can i pay in installments,23,,9')
        .replace('q8,"how do I report a power cut, please",,', 'q8,"how do I report a power cut, please",43,')
        .replace('id,question,expected_sequence,notes,count,conversation,turn', 'id,question,expected_sequence,notes,count,conversation,turn,expect')
        .split('\n')
        .map((line, i) => (i === 0 || line === '' ? line : `${line},${line.startsWith('q7,') ? 'fallback' : ''}`))
        .join('\n'),
    );
    expect(revision).toBe(sha(set));
    expect(files()).toEqual([...before, `${set}.labels.jsonl`].sort());
    // the skipped one comes last; a decided one is not offered again
    const next = await ok<LabelItem[]>('next', { exclude: [], count: 10 });
    expect(next.map((i) => i.id)).toEqual(['q3', 'q5', 'q4', 'q1']);
    expect((await api('decide', { revision, id: 'q6', decision: { kind: 'fallback' } })).status).toBe(409);
  });

  it('a sequence number that is neither an answer nor an entry of the knowledge base is refused; an entry of it is taken', async () => {
    const { revision } = await ok<LabelState>('state', {});
    const res = await api('decide', { revision, id: 'q5', decision: { kind: 'answer', sequence: 99999 } });
    expect(res.status).toBe(400);
    expect(res.json()).toEqual({ error: 'sequence number 99999 is neither an answer of question "q5" nor an entry of the knowledge base' });
    expect(sha(set)).toBe(revision);
    const reply = await ok<WriteReply>('decide', { revision, id: 'q5', decision: { kind: 'answer', sequence: 31 } });
    expect(readFileSync(set, 'utf8')).toContain('\nq5,my meter reading is wrong,31,,,,,\n');
    expect(reply.revision).toBe(sha(set));
  });

  it('a set changed on disk since the page read it is never overwritten: 409, and the page is told', async () => {
    const { revision } = await ok<LabelState>('state', {});
    const edited = `${readFileSync(set, 'utf8')}q9,added by hand meanwhile,,,,,,\n`;
    writeFileSync(set, edited);
    const res = await api('decide', { revision, id: 'q3', decision: { kind: 'answer', sequence: 24 } });
    expect(res.status).toBe(409);
    expect(res.json()).toEqual({ error: 'the question set changed on disk since this page read it: nothing was written; reload the page', conflict: true });
    expect((await api('undo', { revision })).status).toBe(409);
    expect(readFileSync(set, 'utf8')).toBe(edited);
    // put back as the run asked it (rescore refuses a question the run did not ask)
    writeFileSync(set, edited.replace('q9,added by hand meanwhile,,,,,,\n', ''));
  });

  it('undo works after a restart: the log says what the last decision was, and the row is put back', async () => {
    const before = readFileSync(set, 'utf8');
    let { revision } = await ok<LabelState>('state', {});
    ({ revision } = await ok<WriteReply>('decide', { revision, id: 'q3', decision: { kind: 'answer', sequence: 24 } }));
    const labeled = readFileSync(set, 'utf8');
    expect(labeled).toBe(before.replace('q3,I want a refund,,', 'q3,I want a refund,24,'));
    await server.close();
    await start();
    ({ revision } = await ok<LabelState>('state', {}));
    const undone = await ok<WriteReply>('undo', { revision });
    expect(undone.item?.id).toBe('q3');
    expect(readFileSync(set, 'utf8')).toBe(before);
    // and the one before it (q5), across the restart too
    const again = await ok<WriteReply>('undo', { revision: undone.revision });
    expect(again.item?.id).toBe('q5');
    expect(readFileSync(set, 'utf8')).toBe(before.replace('q5,my meter reading is wrong,31,', 'q5,my meter reading is wrong,,'));
  });

  it("the figures are rescore's, on the set as it is now", async () => {
    const figures = await ok<Figures>('figures', {});
    const { head } = await rescoreReport(join(run, 'report.json'), { dataset: set });
    expect(figures.revision).toBe(sha(set));
    expect(figures.top1Accuracy).toEqual(head.metrics!.intervals.top1Accuracy);
    expect(figures.answerableAccuracy).toEqual(head.metrics!.intervals.answerableAccuracy);
    expect(figures.judged).toBe(4); // q2, q6, q7, q8
  });
});

describe('a decision the log holds but the set does not (a stop between the two writes)', () => {
  it('is written into the set when the server starts again', async () => {
    const { revision, items } = await ok<LabelState>('state', {});
    const target = items.find((i) => i.id === 'q5')!;
    expect(target).toBeDefined();
    await server.close();
    const text = readFileSync(set, 'utf8');
    const row = 'q5,my meter reading is wrong,,,,,,';
    const after = text.replace(row, 'q5,my meter reading is wrong,30,,,,,');
    await appendLog(`${set}.labels.jsonl`, {
      v: 1,
      kind: 'decision',
      at: new Date().toISOString(),
      id: 'q5',
      decision: { kind: 'answer', sequence: 30, label: 'submit_reading' },
      changes: { expected_sequence: '30' },
      row: { before: row, after: 'q5,my meter reading is wrong,30,,,,,' },
      set: { before: revision, after: createHash('sha256').update(after).digest('hex') },
    });
    await start();
    expect(readFileSync(set, 'utf8')).toBe(after);
    expect((await ok<LabelState>('state', {})).notes).toContain(`the last decision of the log ("q5") was not in ${set} (a stop between the log and the set): written now`);
  });
});

describe('what it reads', () => {
  it('a run whose questions came from a pipe, a missing set, a set not in UTF-8: refused, saying how to name it', async () => {
    const piped = join(dir, 'piped');
    mkdirSync(piped);
    const report = JSON.parse(readFileSync(join(run, 'report.json'), 'utf8')) as { run: { dataset: { path: string } } };
    report.run.dataset.path = '/dev/fd/63';
    writeFileSync(join(piped, 'report.json'), JSON.stringify(report));
    await expect(startLabelServer({ run: piped, host: '127.0.0.1', port: 0 })).rejects.toThrow('/dev/fd/63: the run read its questions from a pipe, which cannot be written back: name the question set file with -d FILE');
    await expect(startLabelServer({ run, dataset: join(dir, 'nope.csv'), host: '127.0.0.1', port: 0 })).rejects.toThrow(`${join(dir, 'nope.csv')}: no such file: name the question set file with -d FILE`);
    const utf16 = join(dir, 'utf16.csv');
    writeFileSync(utf16, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('id,question\n', 'utf16le')]));
    await expect(startLabelServer({ run, dataset: utf16, host: '127.0.0.1', port: 0 })).rejects.toThrow('UTF-16');
    expect(statSync(utf16).size).toBe(26);
  });
});

describe('a JSONL set, with --wrong', () => {
  it('offers the wrong questions too, and writes into their line only, in the column the set uses', async () => {
    const jdir = tempDir('answer-eval-label-jsonl-');
    const lines = [
      '{"id": "j1", "question": "how can I pay my bill?", "expected_label": "late_payment", "tags": "billing"}',
      '{"id":"j2","question":"what is the capital of mars"}',
      '{"id":"j3","question":"hello there","expected_label":"greeting"}',
      '',
    ];
    const made = await makeRun(jdir, lines.join('\n'), 'set.jsonl');
    const wrong = await startLabelServer({ run: made.run, host: '127.0.0.1', port: 0, wrong: true });
    try {
      const origin = new URL(wrong.url).origin;
      const headers = { 'content-type': 'application/json', 'x-answer-eval-token': new URL(wrong.url).searchParams.get('token')!, origin };
      const post = async <T>(route: string, body: unknown): Promise<T> => {
        const res = await fetch(new URL(`/api/${route}`, origin), { method: 'POST', headers, body: JSON.stringify(body) });
        expect(res.status).toBe(200);
        return (await res.json()) as T;
      };
      const state = await post<LabelState>('state', {});
      expect(state.set).toMatchObject({ format: 'jsonl', column: 'expected_label' });
      expect(state.kb).toBeNull();
      expect(state.items.map((i) => [i.id, i.outcome, i.expected])).toEqual([['j1', 'wrong', 'label late_payment'], ['j2', 'unlabeled', undefined]]);
      const one = await post<WriteReply>('decide', { revision: state.revision, id: 'j1', decision: { kind: 'answer', sequence: 20 } });
      await post<WriteReply>('decide', { revision: one.revision, id: 'j2', decision: { kind: 'fallback' } });
      expect(readFileSync(made.set, 'utf8')).toBe(
        ['{"id":"j1","question":"how can I pay my bill?","expected_label":"payment_methods","tags":"billing"}', '{"id":"j2","question":"what is the capital of mars","expect":"fallback"}', lines[2], ''].join('\n'),
      );
    } finally {
      await wrong.close();
    }
  });
});
