import { describe, expect, it } from 'vitest';
import { MAX_MARKUP_DEPTH, parseHtmlReply, parseXmlReply } from '../../src/client/markup.js';
import { readerFor, readReply } from '../../src/client/outputs.js';
import { parseAnswerResponse } from '../../src/client/response.js';
import { parseTextReply, TextKnowledge, type TextEntry } from '../../src/client/text-reply.js';
import { NO_ENTRY, type AnswerResponse } from '../../src/model/answer.js';
import { render } from '../../src/engine/render.js';
import type { AnswerResponse as EngineResponse } from '../../src/engine/respond.js';

// The engine's renderings of one reply, read back by each reader: xml and html must give exactly the json reply
// (its answer text whitespace-collapsed in html, as a browser shows it); text the answers' texts.

const item = (over: Record<string, string> = {}): Record<string, string> => ({
  answer: 'You can pay by card & by "transfer" <now>',
  theme: 'Ways to pay',
  context: 'bills',
  snippet: 'PAY',
  sequence_number: '20',
  answer_score: '66.7',
  tags: 'payments|en',
  label: 'payment_methods',
  category: 'payments',
  sub_category: 'payment',
  answer_language: 'en',
  is_agent_answer: 'true',
  is_dummy_answer: 'false',
  is_dummy_floor_answer: 'false',
  is_suggestion_answer: 'false',
  is_international_question: 'false',
  is_dialog_in_progress: 'false',
  is_dialogue_answer: 'false',
  delay: '-1',
  ...over,
});

const reply: EngineResponse = {
  post_processed_answer: "ehi! didn't I already answer you?",
  answers: [item(), item({ answer: 'Late fees: 5 €', sequence_number: '21', answer_score: '40', label: 'late_fees', is_suggestion_answer: 'true', delay: '2' })],
};

const ok = (parsed: ReturnType<typeof parseAnswerResponse>): AnswerResponse => {
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.response;
};

const json = ok(parseAnswerResponse(render(reply, 'json').body));

describe('the embedded engine\'s renderings, read back', () => {
  it('xml reads as the json reply, field for field', () => {
    expect(ok(parseXmlReply(render(reply, 'xml').body))).toEqual(json);
  });

  it('html reads as the json reply, field for field', () => {
    expect(ok(parseHtmlReply(render(reply, 'html').body))).toEqual(json);
  });

  it('text reads as the answers\' texts and the post-processed answer; without the knowledge base, no entry', () => {
    const read = ok(parseTextReply(render(reply, 'text').body, 'en'));
    expect(read.post_processed_answer).toBe(reply.post_processed_answer);
    expect(read.answers.map((a) => [a.answer, a.sequence_number, a.answer_score, a.is_dummy_floor_answer])).toEqual([
      [reply.answers[0]!['answer'], NO_ENTRY, 0, false],
      [reply.answers[1]!['answer'], NO_ENTRY, 0, false],
    ]);
  });

  it('an empty list reads as an empty list in every output', async () => {
    for (const output of ['json', 'xml', 'html', 'text'] as const) {
      await readerFor(output);
      expect(ok(readReply(render({ answers: [] }, output).body, { output, language: 'en' })), output).toEqual({ answers: [] });
    }
  });
});

const entry = (sequenceNumber: number, answer: string, over: Partial<TextEntry> = {}): TextEntry => ({ sequenceNumber, answer, tags: [], language: 'en', smallTalk: false, ...over });

describe('a text reply against the knowledge base', () => {
  const knowledge = new TextKnowledge([
    entry(20, 'You can pay by card.', { label: 'payment_methods', category: 'payments', subCategory: 'payment', tags: ['payments'], theme: 'Ways' }),
    entry(1, 'Hello to you, Human!', { label: 'greeting', smallTalk: true }),
    entry(30, 'Paghi con la carta.', { label: 'payment_methods', language: 'it' }),
    entry(31, 'You can pay by card.', { label: 'pay_it', language: 'it' }),
    entry(40, 'First part.\n\nSecond part.', { label: 'two_parts', delay: 3 }),
  ]);

  it('recovers each answer\'s entry (in the question\'s language first), the rest as suggestions', () => {
    const read = ok(parseTextReply('you can PAY  by card.\n\nHello to you, Human!\n', 'en', knowledge));
    expect(read.answers[0]).toEqual({
      answer: 'you can PAY  by card.', theme: 'Ways', sequence_number: 20, answer_score: 0, tags: ['payments'], label: 'payment_methods', category: 'payments',
      sub_category: 'payment', answer_language: 'en', is_agent_answer: true, is_dummy_answer: false, is_dummy_floor_answer: false, is_suggestion_answer: false,
      is_international_question: false, is_dialog_in_progress: false, is_dialogue_answer: false, delay: -1,
    });
    expect(read.answers[1]).toMatchObject({ sequence_number: 1, is_dummy_answer: true, is_suggestion_answer: true });
    expect(ok(parseTextReply('You can pay by card.', 'it', knowledge)).answers[0]).toMatchObject({ sequence_number: 31, answer_language: 'it', is_international_question: false });
    expect(ok(parseTextReply('Paghi con la carta.', 'en', knowledge)).answers[0]).toMatchObject({ sequence_number: 30, is_international_question: true });
  });

  it('a text no entry has is the floor answer', () => {
    expect(ok(parseTextReply("Sorry, I don't know.", 'en', knowledge)).answers).toEqual([
      expect.objectContaining({ answer: "Sorry, I don't know.", sequence_number: NO_ENTRY, is_agent_answer: false, is_dummy_answer: true, is_dummy_floor_answer: true }),
    ]);
  });

  it('one answer of several paragraphs is one answer when the paragraphs are not answers themselves', () => {
    const read = ok(parseTextReply('First part.\r\n\r\nSecond part.\r\n', 'en', knowledge));
    expect(read.answers).toHaveLength(1);
    expect(read.answers[0]).toMatchObject({ sequence_number: 40, delay: 3 });
  });

  it('an empty body is an empty list; a JSON body is a protocol error (the service ignored output)', () => {
    expect(ok(parseTextReply(' \n\n', 'en', knowledge)).answers).toEqual([]);
    const jsonBody = parseTextReply('{"answers": []}', 'en', knowledge);
    expect(!jsonBody.ok && jsonBody.message).toMatch(/^the body is JSON, not the text that was asked for/);
    expect(ok(parseTextReply('{curly} answer', 'en')).answers[0]!.answer).toBe('{curly} answer');
  });

  it('an HTML page (a maintenance or proxy page sent with 200) is a protocol error, not the floor answer', () => {
    for (const page of ['<!DOCTYPE html><html><head><title>Maintenance</title></head><body><h1>Down</h1></body></html>', '\uFEFF\n<html lang="en"><body>502</body></html>']) {
      const read = parseTextReply(page, 'en', knowledge);
      expect(!read.ok && read.message).toMatch(/^the body is an HTML page, not the text that was asked for: "/);
    }
    // an answer that merely holds markup is still an answer
    expect(ok(parseTextReply('See <a href="/bills">your bills</a>.', 'en')).answers[0]!.answer).toBe('See <a href="/bills">your bills</a>.');
  });
});

describe('xml replies other services may send', () => {
  const fields = (over = '') =>
    `<sequence_number>7</sequence_number><answer_score>55</answer_score><is_agent_answer>true</is_agent_answer><is_dummy_answer>false</is_dummy_answer>` +
    `<is_dummy_floor_answer>false</is_dummy_floor_answer><is_suggestion_answer>false</is_suggestion_answer><is_international_question>false</is_international_question>` +
    `<is_dialog_in_progress>false</is_dialog_in_progress><is_dialogue_answer>false</is_dialogue_answer><delay>-1</delay>${over}`;

  it('items named anything inside <answers>, fields as elements in any case or with dashes, CDATA, entities, comments', () => {
    const body = `<?xml version="1.0"?><!-- a reply --><Reply><Post-Processed-Answer>  again?  </Post-Processed-Answer><Answers>
      <answer><answer><![CDATA[Pay <b>by</b> card]]> &amp; cash</answer>${fields('<tags><tag>a</tag><tag> b </tag></tags><Sub-Category>x</Sub-Category>')}</answer>
    </Answers></Reply>`;
    const read = ok(parseXmlReply(body));
    expect(read.post_processed_answer).toBe('again?');
    expect(read.answers).toHaveLength(1);
    expect(read.answers[0]).toMatchObject({ answer: 'Pay <b>by</b> card & cash', sequence_number: 7, answer_score: 55, tags: ['a', 'b'], sub_category: 'x' });
  });

  it('fields as attributes, the answer as the item\'s text; <answer_item> without a container', () => {
    const attrs = 'sequence_number="3" answer_score="9.5" is_agent_answer="1" is_dummy_answer="0" is_dummy_floor_answer="0" is_suggestion_answer="0" ' +
      'is_international_question="0" is_dialog_in_progress="0" is_dialogue_answer="0" delay="-1"';
    const read = ok(parseXmlReply(`<r><answer_item ${attrs}> Pay by card </answer_item><item ${attrs.replace('"3"', '"4"')}>Cash</item></r>`));
    expect(read.answers.map((a) => [a.answer, a.sequence_number, a.answer_score])).toEqual([['Pay by card', 3, 9.5], ['Cash', 4, 9.5]]);
  });

  it('names what is wrong: a missing field, no <answers>, no XML at all, a JSON body', () => {
    const missing = parseXmlReply(`<response><answers><answer_item><answer>x</answer><answer_score>1</answer_score></answer_item></answers></response>`);
    expect(!missing.ok && missing.message).toMatch(/^answers\[0\]\.sequence_number: is missing \(body: "<response>/);
    const none = parseXmlReply('<html><body>Service unavailable</body></html>');
    expect(!none.ok && none.message).toMatch(/^no <answers> element \(expected <answers><answer_item>/);
    const text = parseXmlReply('Service unavailable');
    expect(!text.ok && text.message).toBe('the body is not XML: "Service unavailable"');
    const jsonBody = parseXmlReply('{"answers": []}');
    expect(!jsonBody.ok && jsonBody.message).toMatch(/^the body is JSON, not the xml that was asked for \(does the service ignore "output"\?\)/);
  });

  it('refuses a body nested deeper than the bound at once; refuses 20,000 items at the 1,001st (MAX_ANSWERS_PER_REPLY)', () => {
    let started = performance.now();
    const deepXml = `<answers><answer_item><answer>x</answer>${fields(`<vendor>${'<a>'.repeat(300_000)}y</vendor>`)}</answer_item></answers>`;
    const deepHtml = `<answers><ol class="answers"><li class="answer">${'<b>'.repeat(300_000)}y</li></ol></answers>`;
    for (const deep of [parseXmlReply(deepXml), parseHtmlReply(deepHtml)]) {
      expect(!deep.ok && deep.message).toMatch(new RegExp(`^elements nested more than ${MAX_MARKUP_DEPTH} deep \\(a reply is read up to ${MAX_MARKUP_DEPTH} levels\\): "<answers>`));
    }
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(ok(parseXmlReply(`<answers><answer_item><answer>x</answer>${fields(`<vendor>${'<a>'.repeat(200)}y${'</a>'.repeat(200)}</vendor>`)}</answer_item></answers>`)).answers[0]!['vendor']).toBe('y');
    started = performance.now();
    const many = (n: number): string => `<answers>${`<answer_item><answer>x</answer>${fields()}</answer_item>`.repeat(n)}</answers>`;
    const refused = parseXmlReply(many(20_000));
    expect(!refused.ok && refused.message).toMatch(/^the reply holds more than 1,000 answers/);
    expect(ok(parseXmlReply(many(1_000))).answers).toHaveLength(1_000);
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  it('keeps a field named __proto__ as a field, never as the item\'s prototype', () => {
    const read = ok(parseXmlReply(`<answers><answer_item><answer>x</answer>${fields('<__proto__>p</__proto__>')}</answer_item></answers>`));
    const got = read.answers[0]!;
    expect(Object.hasOwn(got, '__proto__')).toBe(true);
    expect(got.label).toBeUndefined();
  });
});

describe('html replies other services may send', () => {
  const data = 'data-sequence_number="5" data-answer-score="12" data-is-agent-answer="true" data-is-dummy-answer="false" data-is-dummy-floor-answer="false" ' +
    'data-is-suggestion-answer="false" data-is-international-question="false" data-is-dialog-in-progress="false" data-is-dialogue-answer="false" data-delay="-1"';

  it('an item of class answer anywhere; its text with markup and line breaks, as a browser shows it; fields in elements of their class', () => {
    const body = `<div class="reply"><p class="post_processed_answer">Again <em>you</em>?</p><ul class="answers">
      <li class="answer first" ${data}><p class="answer-text">Pay&nbsp;by <b>card</b><br>or cash</p><span class="label"> pay </span><span class="Sub-Category">x</span></li>
      <li class="answer" ${data.replace('"5"', '"6"')}>Plain &eacute;t&eacute; <script>var x = "<li class='answer'>";</script></li>
    </ul></div>`;
    const read = ok(parseHtmlReply(body));
    expect(read.post_processed_answer).toBe('Again you?');
    expect(read.answers.map((a) => [a.answer, a.sequence_number, a.label, a.sub_category])).toEqual([
      ['Pay by card or cash', 5, 'pay', 'x'],
      ['Plain été', 6, undefined, undefined],
    ]);
  });

  it('names what is wrong: no list, a page that is no reply, a JSON body', () => {
    const page = parseHtmlReply('<!doctype html><html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1></body></html>');
    expect(!page.ok && page.message).toMatch(/^no element of class "answers" or "answer"/);
    expect(ok(parseHtmlReply('<ol class="answers"></ol>')).answers).toEqual([]);
    const missing = parseHtmlReply('<ol class="answers"><li class="answer">x</li></ol>');
    expect(!missing.ok && missing.message).toMatch(/^answers\[0\]\.sequence_number: is missing/);
    expect(!parseHtmlReply('').ok).toBe(true);
  });
});
