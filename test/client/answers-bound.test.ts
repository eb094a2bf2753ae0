import { describe, expect, it } from 'vitest';
import { readerFor, readReply } from '../../src/client/outputs.js';
import { excerpt, MAX_ANSWERS_PER_REPLY } from '../../src/client/response.js';
import { render } from '../../src/engine/render.js';
import type { Output } from '../../src/model/request-fields.js';
import { item } from '../helpers/spec-server.js';

// A reply holds at most MAX_ANSWERS_PER_REPLY answers, whatever its output: one more is a protocol error, found
// without reading the list whole.

const items = (n: number): Record<string, string>[] => Array.from({ length: n }, (_, i) => item(i + 1, 90));
const read = async (body: string, output: Output) => {
  await readerFor(output);
  return readReply(body, { output, language: 'en' });
};
const TOO_MANY = /^the reply holds more than 1,000 answers \(a ranked list is read up to 1,000: more is no ranked list but a fault of the service\): "/;

describe('the answers a reply may hold', () => {
  it.each(['json', 'xml', 'html', 'text'] as const)('%s: the bound is read whole, one more is a protocol error', async (output) => {
    const at = await read(render({ answers: items(MAX_ANSWERS_PER_REPLY) }, output).body, output);
    expect(at.ok && at.response.answers.length).toBe(MAX_ANSWERS_PER_REPLY);
    const over = await read(render({ answers: items(MAX_ANSWERS_PER_REPLY + 1) }, output).body, output);
    expect(!over.ok && over.message).toMatch(TOO_MANY);
  });

  it('text: the post-processed answer is not an answer', async () => {
    const body = render({ post_processed_answer: 'hi', answers: items(MAX_ANSWERS_PER_REPLY) }, 'text').body;
    const reply = await read(body, 'text');
    expect(reply.ok && reply.response.post_processed_answer).toBe('hi');
    expect(reply.ok && reply.response.answers.length).toBe(MAX_ANSWERS_PER_REPLY);
  });

  it('a megabyte of blank-line paragraphs is refused at once, its excerpt made from its start', async () => {
    const body = 'x\n\n'.repeat(349_525);
    const started = performance.now();
    const reply = await read(body, 'text');
    expect(!reply.ok && reply.message).toBe(`${'the reply holds more than 1,000 answers (a ranked list is read up to 1,000: more is no ranked list but a fault of the service): '}${JSON.stringify(`${'x '.repeat(80)}…`)}`);
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});

describe('excerpt', () => {
  it('flattens only the start of a body, further while whitespace fills it', () => {
    expect(excerpt(' a\n\n b ')).toBe('a b');
    expect(excerpt(`${' '.repeat(10_000)}${'y'.repeat(200)}`)).toBe(`${'y'.repeat(160)}…`);
    expect(excerpt(`${' '.repeat(100_000)}y`)).toBe('…');
    expect(excerpt(`a${' '.repeat(2_000)}b`)).toBe('a b');
  });
});
