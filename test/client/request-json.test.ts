import { describe, expect, it } from 'vitest';
import type { Question } from '../../src/model/question.js';
import { requestBody, requestJson, type RequestSettings } from '../../src/client/request.js';

// requestJson builds each shape of body once and splices each question's text into it: it must write, byte for
// byte, what JSON.stringify of the body object writes, whatever the row sets and whatever its strings hold.

const settings: RequestSettings = { agent: 'agent "1"', language: 'en', guest: true, forceSubscription: false, output: 'json' };
const question = (over: Partial<Question>): Question => ({ id: 'q', line: 2, question: 'How do I pay?', expect: 'answer', expected: {}, tags: [], ...over });

const rows: Partial<Question>[] = [
  {},
  { question: 'quotes " and \\ and \n and "question":{"text":"x"} and \u2028 and emoji 💡' },
  { question: '' },
  { username: 'ann "question":{"text":', guest: false },
  { guest: false, username: 'bob' },
  { language: 'fr' },
  { request: { askForMetadata: true, usingRepeatingAnswers: false } },
  { request: { forceSubscription: true, output: 'xml' } },
  { extraData: '{"k":1}' },
  { username: 'carol', language: 'de', request: { output: 'text' }, extraData: 'x' },
];

describe('requestJson', () => {
  it('is JSON.stringify(requestBody()) for every shape of row, asked twice (the second from the built shape)', () => {
    for (const s of [settings, { ...settings, username: 'run-user', guest: false, askForMetadata: false, usingRepeatingAnswers: true, forceSubscription: true }]) {
      for (const row of rows) {
        const q = question(row);
        const expected = JSON.stringify(requestBody(q, s));
        expect(requestJson(q, s)).toBe(expected);
        expect(requestJson({ ...q, question: `${q.question} again` }, s)).toBe(JSON.stringify(requestBody({ ...q, question: `${q.question} again` }, s)));
      }
    }
  });

  it('keeps shapes of different settings apart', () => {
    const q = question({});
    expect(JSON.parse(requestJson(q, settings)).wikiagent).toBe('agent "1"');
    expect(JSON.parse(requestJson(q, { ...settings, agent: 'other', language: 'es' }))).toMatchObject({ wikiagent: 'other', language: 'es' });
  });
});
