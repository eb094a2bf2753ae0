import { describe, expect, it } from 'vitest';
import { MAX_DEPTH } from '../../src/client/nesting.js';
import { fastParse } from '../../src/client/fast-parse.js';
import { AnswerResponseSchema, parseAnswerResponse } from '../../src/client/response.js';
import { isDescending, topIndex, type AnswerItem, type AnswerResponse } from '../../src/model/answer.js';

const sampleItem = {
  answer: 'Hello to you, Human!',
  theme: 'greetings',
  snippet: 'EMPATHY',
  sequence_number: '42',
  answer_score: '10',
  tags: 'hello|human',
  is_agent_answer: 'true',
  is_dummy_answer: 'true',
  is_dummy_floor_answer: 'false',
  is_suggestion_answer: 'false',
  is_international_question: 'false',
  is_dialog_in_progress: 'false',
  is_dialogue_answer: 'false',
  delay: '-1',
};

describe('parseAnswerResponse', () => {
  it('coerces the sample strings to numbers, booleans and tag lists, keeping unknown fields', () => {
    const parsed = parseAnswerResponse(JSON.stringify({ post_processed_answer: 'again?', answers: [{ ...sampleItem, vendor_field: 'x' }] }));
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    const item = parsed.response.answers[0]!;
    expect(item.sequence_number).toBe(42);
    expect(item.answer_score).toBe(10);
    expect(item.delay).toBe(-1);
    expect(item.is_dummy_answer).toBe(true);
    expect(item.is_dummy_floor_answer).toBe(false);
    expect(item.tags).toEqual(['hello', 'human']);
    expect(item['vendor_field']).toBe('x');
    expect(parsed.response.post_processed_answer).toBe('again?');
  });

  it('accepts real numbers and booleans', () => {
    const parsed = parseAnswerResponse(
      JSON.stringify({ answers: [{ ...sampleItem, sequence_number: 7, answer_score: 55.5, is_dummy_answer: false, tags: ['a'] }] }),
    );
    expect(parsed.ok && parsed.response.answers[0]).toMatchObject({ sequence_number: 7, answer_score: 55.5, is_dummy_answer: false, tags: ['a'] });
  });

  it('names a missing mandatory field with its index and an excerpt of the body', () => {
    const { answer_score: _omit, ...noScore } = sampleItem;
    const parsed = parseAnswerResponse(JSON.stringify({ answers: [sampleItem, noScore] }));
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.message).toMatch(/^answers\[1\]\.answer_score: is missing \(body: "\{/);
  });

  it('names a mistyped field', () => {
    const parsed = parseAnswerResponse(JSON.stringify({ answers: [{ ...sampleItem, is_dummy_answer: 'maybe' }] }));
    expect(!parsed.ok && parsed.message).toMatch(/^answers\[0\]\.is_dummy_answer: /);
    const bad = parseAnswerResponse(JSON.stringify({ answers: [{ ...sampleItem, answer_score: 'high' }] }));
    expect(!bad.ok && bad.message).toMatch(/^answers\[0\]\.answer_score: expected a number/);
  });

  it('reports a body that is not JSON (the public sample lacks two commas) with an excerpt', () => {
    const parsed = parseAnswerResponse('{"answers": [{"category": "x"\n "sub_category": "y"}]}');
    expect(parsed).toEqual({ ok: false, message: 'the body is not JSON: "{\\"answers\\": [{\\"category\\": \\"x\\" \\"sub_category\\": \\"y\\"}]}"' });
  });

  it('says what it got for a number out of range, 1e309 or "1e309", rather than null', () => {
    const body = (score: string) => JSON.stringify({ answers: [sampleItem] }).replace('"answer_score":"10"', `"answer_score":${score}`);
    expect(parseAnswerResponse(body('1e309'))).toMatchObject({ ok: false, message: expect.stringMatching(/^answers\[0\]\.answer_score: expected a finite number, got 1e309 \(out of range\) \(body: /) });
    expect(parseAnswerResponse(body('"1e309"'))).toMatchObject({ ok: false, message: expect.stringMatching(/^answers\[0\]\.answer_score: expected a finite number, got "1e309" \(out of range\) \(body: /) });
    expect(parseAnswerResponse(body('-2.5E+400'))).toMatchObject({ ok: false, message: expect.stringMatching(/^answers\[0\]\.answer_score: expected a finite number, got -2\.5E\+400 \(out of range\)/) });
    const delay = JSON.stringify({ answers: [{ ...sampleItem, delay: ' -1e999 ' }] });
    expect(parseAnswerResponse(delay)).toMatchObject({ ok: false, message: expect.stringMatching(/^answers\[0\]\.delay: expected a finite number, got " -1e999 " \(out of range\)/) });
  });

  it('refuses arrays and objects nested deeper than MAX_DEPTH, naming the field, in a short message', () => {
    const deep = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
    const body = (value: string) => JSON.stringify({ answers: [sampleItem, sampleItem] }).replace(/"delay":"-1"}\]/, `"delay":"-1","vendor":${value}}]`);
    const parsed = parseAnswerResponse(body(deep(5000)));
    expect(parsed).toMatchObject({ ok: false, message: expect.stringMatching(/^answers\[1\]\.vendor\[0\]: arrays and objects nested more than 32 deep/) });
    expect(!parsed.ok && parsed.message.length).toBeLessThan(500);
    // the body (level 1), answers, an item, the field: 28 more levels are fine
    expect(parseAnswerResponse(body(deep(MAX_DEPTH - 3))).ok).toBe(true);
    expect(parseAnswerResponse(body(deep(MAX_DEPTH - 2))).ok).toBe(false);
    // deep where the schema looks (zod would quote it) and at the top level
    const inScore = JSON.stringify({ answers: [sampleItem] }).replace('"answer_score":"10"', `"answer_score":${deep(5000)}`);
    expect(parseAnswerResponse(inScore)).toMatchObject({ ok: false, message: expect.stringMatching(/^answers\[0\]\.answer_score\[0\]: arrays and objects nested/) });
    expect(parseAnswerResponse(`{"answers":[],"x":${'{"a":'.repeat(100)}1${'}'.repeat(100)}}`)).toMatchObject({ ok: false, message: expect.stringMatching(/^x\.a\.a\.a: arrays and objects nested/) });
  });

  it('keeps the message short whatever the size of the bad value', () => {
    const huge = 'x'.repeat(900_000);
    for (const item of [{ ...sampleItem, answer_score: huge }, { ...sampleItem, is_dummy_answer: huge }, { ...sampleItem, tags: [huge, 1] }, { ...sampleItem, answer: [huge] }]) {
      const parsed = parseAnswerResponse(JSON.stringify({ answers: [item] }));
      expect(parsed.ok).toBe(false);
      expect(!parsed.ok && parsed.message.length).toBeLessThan(500);
    }
    const parsed = parseAnswerResponse(JSON.stringify({ answers: [{ ...sampleItem, answer_score: huge }] }));
    expect(!parsed.ok && parsed.message).toMatch(/^answers\[0\]\.answer_score: expected a number such as "42", got "x+… \(cut\) \(body: /);
  });

  it('treats a missing answers list as a protocol error', () => {
    expect(parseAnswerResponse('{}')).toMatchObject({ ok: false, message: expect.stringMatching(/^answers: is missing/) });
  });

  it('a reply with no answers and an error member is the service failing, not refusing', () => {
    expect(parseAnswerResponse('{"error":"internal error","answers":[]}')).toMatchObject({ ok: false, message: 'the reply has no answers and says "error" (body: "{\\"error\\":\\"internal error\\",\\"answers\\":[]}")' });
    expect(parseAnswerResponse('{"answers":[],"errors":[{"code":7}]}')).toMatchObject({ ok: false, message: expect.stringMatching(/^the reply has no answers and says "errors"/) });
    // an empty or null error member, or answers beside it, stay a reply
    for (const body of ['{"answers":[],"error":null}', '{"answers":[],"error":""}', '{"answers":[],"errors":[]}']) expect(parseAnswerResponse(body).ok).toBe(true);
    expect(parseAnswerResponse(JSON.stringify({ error: 'partial', answers: [sampleItem] })).ok).toBe(true);
  });
});

describe('topIndex and isDescending', () => {
  const a = (score: number) => ({ answer_score: score }) as AnswerItem;
  it('picks the highest score, the earlier one on ties', () => {
    expect(topIndex([a(1), a(5), a(3), a(5)])).toBe(1);
    expect(topIndex([])).toBe(-1);
  });
  it('detects ascending lists', () => {
    expect(isDescending([a(5), a(5), a(1)])).toBe(true);
    expect(isDescending([a(1), a(2)])).toBe(false);
    expect(isDescending([])).toBe(true);
  });
});

describe('keys of a reply named like Object.prototype fields are data', () => {
  const flags = { is_agent_answer: 'true', is_dummy_answer: 'false', is_dummy_floor_answer: 'false', is_suggestion_answer: 'false', is_international_question: 'false', is_dialog_in_progress: 'false', is_dialogue_answer: 'false', delay: '-1' };
  // as a service would write it: JSON.parse makes each of these keys an own field
  const evil = '"__proto__":{"label":"billing","category":"Billing","tags":["x"]},"constructor":{"label":"billing"},"prototype":{"label":"billing"},"toString":"x","hasOwnProperty":1';
  const body = (item: Record<string, unknown>) => JSON.stringify({ answers: [item] }).replace(/\}\]\}$/, `,${evil}}],${evil}}`);

  it('never supplies a field through the prototype, on the fast path and the schema path alike', () => {
    // `tags: null` takes the schema path (the fast path leaves it to the schema)
    for (const tags of [{}, { tags: null }]) {
      expect(fastParse(JSON.parse(body({ answer: 'a', sequence_number: '1', answer_score: '90', ...flags, ...tags })))).toEqual('tags' in tags ? undefined : expect.anything());
      const parsed = parseAnswerResponse(body({ answer: 'a', sequence_number: '1', answer_score: '90', ...flags, ...tags }));
      expect(parsed.ok).toBe(true);
      const response = (parsed as { response: AnswerResponse }).response;
      const item = response.answers[0]!;
      expect(Object.getPrototypeOf(item)).toBe(Object.prototype);
      expect(Object.getPrototypeOf(response)).toBe(Object.prototype);
      expect([item.label, item.category, item.tags, response.post_processed_answer]).toEqual([undefined, undefined, [], undefined]);
      // kept as the fields they are, last, whichever parser ran
      expect(Object.keys(item).slice(-5)).toEqual(['constructor', 'prototype', 'toString', 'hasOwnProperty', '__proto__']);
      expect(Object.getOwnPropertyDescriptor(item, '__proto__')?.value).toEqual({ label: 'billing', category: 'Billing', tags: ['x'] });
      expect(JSON.stringify(response)).toContain('"__proto__":{"label":"billing","category":"Billing","tags":["x"]}}],');
    }
  });

  it('the fast path and the schema agree on such a reply', () => {
    const json: unknown = JSON.parse(body({ answer: 'a', sequence_number: '1', answer_score: '90', ...flags }));
    expect(JSON.stringify(fastParse(json))).toBe(JSON.stringify(AnswerResponseSchema.parse(json)));
  });
});
