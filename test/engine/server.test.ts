import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE_KB, startEngine, type RunningEngine } from '../../src/engine/index.js';
import { ask, specBody } from './helpers.js';

const MANDATORY = [
  'answer', 'sequence_number', 'answer_score', 'is_agent_answer', 'is_dummy_answer', 'is_dummy_floor_answer',
  'is_suggestion_answer', 'is_international_question', 'is_dialog_in_progress', 'is_dialogue_answer', 'delay',
];

let engine: RunningEngine;
beforeAll(async () => {
  engine = await startEngine({ kb: SAMPLE_KB, agent: 'acme', code: 'test-code' });
});
afterAll(() => engine.close());

const answersOf = async (res: Response): Promise<Record<string, string>[]> =>
  ((await res.json()) as { answers: Record<string, string>[] }).answers;

describe('spec 4: submit a question', () => {
  it('answers the spec sample body with a spec-shaped, string-valued, descending list', async () => {
    const res = await ask(engine, specBody('acme'));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const answers = await answersOf(res);
    expect(answers.length).toBeGreaterThan(0);
    expect(answers[0]).toMatchObject({ label: 'payment_methods', sequence_number: '20', is_suggestion_answer: 'false', delay: '-1' });
    for (const item of answers) {
      for (const field of MANDATORY) expect(typeof item[field], field).toBe('string');
      for (const value of Object.values(item)) expect(typeof value).toBe('string');
    }
    const scores = answers.map((a) => Number(a.answer_score));
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(answers.slice(1).every((a) => a.is_suggestion_answer === 'true')).toBe(true);
  });

  it('accepts real numbers and booleans for the flags, and guest alone', async () => {
    const { username: _u, ...body } = specBody('acme');
    const res = await ask(engine, { ...body, guest: 1, force_subscription: 0, question: { text: 'I smell gas' } });
    expect(res.status).toBe(200);
    expect((await answersOf(res))[0]?.label).toBe('gas_leak');
  });

  it('answers small talk as a dummy answer and out-of-scope questions with the localized floor', async () => {
    const hello = await answersOf(await ask(engine, specBody('acme', 'hello')));
    expect(hello[0]).toMatchObject({ label: 'greeting', is_dummy_answer: 'true', is_dummy_floor_answer: 'false', tags: 'hello|human' });
    const floor = await answersOf(await ask(engine, specBody('acme', 'who won the champions league last year')));
    expect(floor).toHaveLength(1);
    expect(floor[0]).toMatchObject({ is_dummy_floor_answer: 'true', sequence_number: '0', answer_language: 'en' });
    const it = await answersOf(await ask(engine, { ...specBody('acme', 'qual è la ricetta della carbonara'), language: 'it' }));
    expect(it[0]).toMatchObject({ is_dummy_floor_answer: 'true', answer_language: 'it' });
  });

  it('answers in the request language from that language entries', async () => {
    const answers = await answersOf(await ask(engine, { ...specBody('acme', 'come posso pagare la bolletta'), language: 'it' }));
    expect(answers[0]).toMatchObject({ label: 'metodi_pagamento', answer_language: 'it' });
  });

  it('sets post_processed_answer when the same username repeats a question', async () => {
    const body = { ...specBody('acme', 'where is my customer number'), username: 'repeat-user' };
    const first = (await (await ask(engine, body)).json()) as Record<string, unknown>;
    const second = (await (await ask(engine, { ...body, question: { text: 'Where is my customer number?' } })).json()) as Record<string, unknown>;
    expect(first.post_processed_answer).toBeUndefined();
    expect(second.post_processed_answer).toMatch(/already answer/);
  });

  it('answers questions in any ISO 639-1 language (pt, nl, pl, ja; pt-BR as pt), in English when the knowledge base has none of it', async () => {
    for (const [language, text] of [['pt', 'como posso pagar a minha conta'], ['nl', 'hoe kan ik mijn rekening betalen'], ['pl', 'jak mogę zapłacić rachunek'], ['ja', '請求書の支払い方法'], ['pt-BR', 'quero pagar minha fatura']]) {
      const res = await ask(engine, { ...specBody('acme', text), language });
      expect(res.status, language).toBe(200);
      const [top] = await answersOf(res);
      expect(top, language).toBeDefined();
      if (top!.is_dummy_floor_answer === 'false') expect(top!.is_international_question, language).toBe('true');
    }
  });

  it.each([
    ['wikiagent', { wikiagent: undefined }],
    ['question', { question: undefined }],
    ['question.text', { question: {} }],
    ['force_subscription', { force_subscription: undefined }],
    ['force_subscription', { force_subscription: '2' }],
    ['output', { output: undefined }],
    ['output', { output: 'yaml' }],
    ['language', { language: undefined }],
    ['language', { language: 'xx' }],
    ['language', { language: 'english' }],
    ['username', { username: undefined, guest: undefined }],
    ['username', { username: undefined, guest: '0' }],
  ])('400 naming %s when it is missing or wrong (%j)', async (field, patch) => {
    const res = await ask(engine, { ...specBody('acme'), ...patch });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { field: string; message: string } };
    expect(body.error.field).toBe(field);
    expect(body.error.message).toBeTruthy();
  });

  it('400 on malformed JSON and a non-object body', async () => {
    for (const raw of ['{"wikiagent": ', '[1,2]', '']) {
      const res = await ask(engine, raw);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: { field: string } }).error.field).toBe('(body)');
    }
  });

  it('413 on a body over 64 KiB', async () => {
    const res = await ask(engine, specBody('acme', 'x'.repeat(70 * 1024)));
    expect(res.status).toBe(413);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/65536/);
  });
});

describe('spec 5: authentication', () => {
  it('404 with a JSON body on a missing or wrong code, or a wrong agent', async () => {
    const missing = await fetch(`${engine.url}/api/v1/answer`, { method: 'POST', body: JSON.stringify(specBody('acme')) });
    const wrongCode = await ask(engine, specBody('acme'), { wikiclone_code: 'nope' });
    const wrongAgent = await ask(engine, specBody('other'));
    for (const res of [missing, wrongCode, wrongAgent]) {
      expect(res.status).toBe(404);
      expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/not authorized/);
    }
  });

  it('does not validate the body of an unauthorized request', async () => {
    expect((await ask(engine, '{broken', { wikiclone_code: 'nope' })).status).toBe(404);
  });
});

describe('outputs and other paths', () => {
  it('renders xml, html and text', async () => {
    const xml = await ask(engine, { ...specBody('acme'), output: 'xml' });
    expect(xml.headers.get('content-type')).toMatch(/^application\/xml/);
    expect(await xml.text()).toMatch(/^<\?xml[\s\S]*<answers>\s*<answer_item>\s*<answer>You can pay[\s\S]*<sequence_number>20<\/sequence_number>/);
    const html = await ask(engine, { ...specBody('acme'), output: 'html' });
    expect(html.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await html.text()).toMatch(/<ol class="answers">\s*<li class="answer"[^>]* data-sequence-number="20"[^>]*>You can pay/);
    const text = await ask(engine, { ...specBody('acme'), output: 'text' });
    expect(text.headers.get('content-type')).toMatch(/^text\/plain/);
    // plain answer texts, one a paragraph: no field names, no scores (a client recovers the entry from the knowledge base)
    const body = await text.text();
    expect(body).toMatch(/^(post_processed_answer: [^\n]+\n\n)?You can pay[^\n]*\n(\n[^\n]+\n)*$/);
    expect(body).not.toMatch(/sequence_number|answer_score/);
  });

  it('healthz 200, unknown path 404, wrong method 405', async () => {
    expect((await fetch(`${engine.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${engine.url}/nope`)).status).toBe(404);
    const get = await fetch(`${engine.url}/api/v1/answer`);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
  });

  it('survives a client that aborts mid-request', async () => {
    const controller = new AbortController();
    const pending = fetch(`${engine.url}/api/v1/answer`, {
      method: 'POST',
      headers: { wikiclone_code: engine.code },
      body: new ReadableStream({ start: (c) => c.enqueue(new TextEncoder().encode('{"wikiagent":')) }),
      duplex: 'half',
      signal: controller.signal,
    } as RequestInit);
    setTimeout(() => controller.abort(), 50);
    await expect(pending).rejects.toThrow();
    expect((await fetch(`${engine.url}/healthz`)).status).toBe(200);
  });
});
