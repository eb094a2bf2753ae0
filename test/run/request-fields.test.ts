import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors.js';
import { render } from '../../src/engine/render.js';
import { runEvaluation } from '../../src/run/run.js';
import { item, startSpecServer } from '../helpers/spec-server.js';
import { tempDir, writeTemp } from '../helpers/tmp.js';

// Every request field of 2.1/2.2 a row may set, sent exactly as the row says (the run's flags for the others), and
// recorded per question where it differs from the run's; the reply read in the output each row asked for.

const dir = tempDir('answer-eval-request-fields-');
// a recording server answering each request in the output it asked for (the engine's renderings)
const server = startSpecServer((req) => {
  const output = String(req.body['output'] ?? 'json') as 'json' | 'xml' | 'html' | 'text';
  const rendered = render({ answers: [item(1, 80, { answer: `answer to ${String((req.body['question'] as { text: string }).text)}` })] }, output);
  return { headers: { 'content-type': rendered.contentType }, body: rendered.body };
});
afterAll(async () => (await server).close());

const csv = [
  'id,question,expected_answer,ask_for_metadata,using_repeating_answers,force_subscription,output',
  'plain,p,answer to p,,,,',
  'meta,m,answer to m,1,0,,xml',
  'repeat,r,answer to r,0,1,1,html',
  'force,f,answer to f,,true,false,TEXT',
].join('\n');

const questionOf = (body: Record<string, unknown>) => body['question'] as Record<string, unknown>;

describe('per-row request fields', () => {
  it('sends exactly each row\'s values, the run\'s for the others, and records what differs from the run\'s', async () => {
    const { url, received } = await server;
    received.length = 0;
    const dataset = writeTemp(dir, 'rows.csv', csv);
    const journalDir = join(dir, 'run');
    const { report } = await runEvaluation({ dataset, baseUrl: url, agent: 'a', agentCode: 'code-1234', concurrency: 1, journalDir });
    const sent = Object.fromEntries(received.map((r) => {
      const q = questionOf(r.body);
      return [q['text'], [q['ask_for_metadata'] ?? '-', q['using_repeating_answers'] ?? '-', r.body['force_subscription'], r.body['output']]];
    }));
    expect(sent).toEqual({ p: ['-', '-', '0', 'json'], m: ['1', '0', '0', 'xml'], r: ['0', '1', '1', 'html'], f: ['-', '1', '0', 'text'] });
    // every reply read in its own output, and judged: xml, html and text as json
    expect(report.results.map((r) => [r.id, r.outcome, r.sent, r.reply])).toEqual([
      ['plain', 'correct', undefined, undefined],
      ['meta', 'correct', { askForMetadata: true, usingRepeatingAnswers: false, output: 'xml' }, { output: 'xml' }],
      ['repeat', 'correct', { forceSubscription: true, askForMetadata: false, usingRepeatingAnswers: true, output: 'html' }, { output: 'html' }],
      ['force', 'correct', { usingRepeatingAnswers: true, output: 'text' }, { output: 'text' }],
    ]);
    expect(report.run.options).not.toHaveProperty('askForMetadata');
    const header = JSON.parse(readFileSync(join(journalDir, 'journal.jsonl'), 'utf8').split('\n')[0]!) as { request: Record<string, unknown> };
    expect(header.request).toMatchObject({ forceSubscription: false, output: 'json' });
    expect(header.request).not.toHaveProperty('askForMetadata');
  });

  it('the run\'s flags are the defaults: a row that repeats them records nothing; they are journaled, and a resume refuses another', async () => {
    const { url, received } = await server;
    received.length = 0;
    const dataset = writeTemp(dir, 'rows2.csv', csv);
    const journalDir = join(dir, 'flags');
    const { report } = await runEvaluation({
      dataset, baseUrl: url, agent: 'a', agentCode: 'code-1234', concurrency: 1, journalDir,
      askForMetadata: true, usingRepeatingAnswers: true, forceSubscription: true, output: 'xml',
    });
    const plain = received.find((r) => questionOf(r.body)['text'] === 'p')!.body;
    expect([questionOf(plain)['ask_for_metadata'], questionOf(plain)['using_repeating_answers'], plain['force_subscription'], plain['output']]).toEqual(['1', '1', '1', 'xml']);
    expect(report.results.map((r) => r.sent)).toEqual([
      undefined,
      { usingRepeatingAnswers: false },
      { askForMetadata: false, output: 'html' },
      { forceSubscription: false, output: 'text' },
    ]);
    expect(report.run.options).toMatchObject({ askForMetadata: true, usingRepeatingAnswers: true, forceSubscription: true, output: 'xml' });
    const header = JSON.parse(readFileSync(join(journalDir, 'journal.jsonl'), 'utf8').split('\n')[0]!) as { request: Record<string, unknown> };
    expect(header.request).toMatchObject({ askForMetadata: true, usingRepeatingAnswers: true, forceSubscription: true, output: 'xml' });
    const resume = { agentCode: 'code-1234', journalDir, resume: true } as const;
    await expect(runEvaluation({ ...resume, askForMetadata: false })).rejects.toThrow(/--ask-for-metadata differs \(journal true, now false\)/);
    await expect(runEvaluation({ ...resume, output: 'json' })).rejects.toThrow(/--output differs \(journal "xml", now "json"\)/);
    await expect(runEvaluation({ ...resume, usingRepeatingAnswers: false })).rejects.toThrow(/--using-repeating-answers differs/);
    // given again as they were: resumed (nothing left to ask)
    const again = await runEvaluation({ ...resume, askForMetadata: true, output: 'xml' });
    expect(again.report.run.resumed).toMatchObject({ fromJournal: 4, asked: 0 });
    expect(again.report.results.map((r) => r.sent)).toEqual(report.results.map((r) => r.sent));
  });

  it('a turn of a conversation sets them too; a JSONL conversation\'s are every turn\'s', async () => {
    const { url, received } = await server;
    received.length = 0;
    const dataset = writeTemp(dir, 'turns.jsonl', [
      JSON.stringify({ id: 'c1', output: 'html', ask_for_metadata: 1, turns: [{ question: 't1' }, { question: 't2', output: 'json', ask_for_metadata: '0' }] }),
      JSON.stringify({ conversation: 'c2', turn: 1, question: 'u1', using_repeating_answers: true }),
      JSON.stringify({ conversation: 'c2', turn: 2, question: 'u2' }),
    ].join('\n'));
    const { report } = await runEvaluation({ dataset, baseUrl: url, agent: 'a', agentCode: 'code-1234', concurrency: 1 });
    const byText = Object.fromEntries(received.map((r) => [questionOf(r.body)['text'], [r.body['output'], questionOf(r.body)['ask_for_metadata'] ?? '-', questionOf(r.body)['using_repeating_answers'] ?? '-']]));
    expect(byText).toEqual({ t1: ['html', '1', '-'], t2: ['json', '0', '-'], u1: ['json', '-', '1'], u2: ['json', '-', '-'] });
    expect(report.results.map((r) => r.sent)).toEqual([{ askForMetadata: true, output: 'html' }, { askForMetadata: false }, { usingRepeatingAnswers: true }, undefined]);
  });

  it('a bad value is a file:line error before anything is sent', async () => {
    const { received } = await server;
    received.length = 0;
    const dataset = writeTemp(dir, 'bad.csv', 'id,question,ask_for_metadata,output,force_subscription\na,q,2,pdf,yes\n');
    const error = await runEvaluation({ dataset, baseUrl: (await server).url, agent: 'a', agentCode: 'code-1234' }).then(() => new Error('ran'), (e: Error) => e);
    expect(error.message.split('\n')).toEqual([
      expect.stringMatching(/bad\.csv:2: column "force_subscription" is "yes" \(expected 1, 0, true or false\)$/),
      expect.stringMatching(/bad\.csv:2: column "ask_for_metadata" is "2" \(expected 1, 0, true or false\)$/),
      expect.stringMatching(/bad\.csv:2: column "output" is "pdf" \(expected one of json, xml, html, text\)$/),
    ]);
    expect(received).toHaveLength(0);
  });

  it('output=text without the knowledge base refuses, before anything is sent, a row it cannot judge', async () => {
    const { url, received } = await server;
    received.length = 0;
    const dataset = writeTemp(dir, 'text.csv', 'id,question,expected_label,expected_answer,expect,output\nok,q,,answer to q,,\nlab,l,billing,,,\n');
    const error = await runEvaluation({ dataset, baseUrl: url, agent: 'a', agentCode: 'code-1234', output: 'text' }).then(() => new Error('ran'), (e: Error) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toBe('question "lab" (line 3): expected_label cannot be judged from a text reply without the knowledge base: give --kb FILE (the one the service answers from), judge by expected_answer alone, or ask with another output');
    const fallback = writeTemp(dir, 'fallback.csv', 'id,question,expect,output\nf,q,fallback,text\n');
    await expect(runEvaluation({ dataset: fallback, baseUrl: url, agent: 'a', agentCode: 'code-1234' })).rejects.toThrow(/expect=fallback \(a floor answer\) cannot be judged from a text reply/);
    expect(received).toHaveLength(0);
    // by answer text alone, it runs
    const byText = writeTemp(dir, 'by-text.csv', 'id,question,expected_answer\nok,q,answer to q\nno,n,answer to q\n');
    const { report } = await runEvaluation({ dataset: byText, baseUrl: url, agent: 'a', agentCode: 'code-1234', output: 'text' });
    expect(report.results.map((r) => [r.outcome, r.reason])).toEqual([['correct', undefined], ['wrong', 'expected answer "answer to q"; top-1 is the text "answer to n"']]);
    expect(report.results[1]!.reply).toEqual({ output: 'text', body: 'answer to n\n' });
  });

  it('output=text beside a remote service with its knowledge base (--kb) recovers each text\'s entry, a text it lacks as the floor', async () => {
    const { url } = await server;
    const kb = writeTemp(dir, 'kb.jsonl', [
      { sequence_number: 7, answer: 'answer to q', label: 'q_label', category: 'Q', sub_category: 'q sub' },
      { sequence_number: 8, answer: 'answer to l', label: 'billing' },
    ].map((e) => JSON.stringify(e)).join('\n'));
    const dataset = writeTemp(dir, 'text-kb.csv', 'id,question,expected_label,expected_sub_category,expect\nok,q,q_label,q sub,\nlab,l,billing,,\nout,o,,,fallback\nmiss,o,billing,,\n');
    const { report } = await runEvaluation({ dataset, baseUrl: url, agent: 'a', agentCode: 'code-1234', output: 'text', knowledgeBase: kb });
    expect(report.results.map((r) => [r.id, r.outcome, r.answers[0]?.sequence_number, r.reason])).toEqual([
      ['ok', 'correct', 7, undefined],
      ['lab', 'correct', 8, undefined],
      ['out', 'fallback_ok', -1, undefined],
      ['miss', 'abstained', -1, 'expected label "billing"; the service refused with the floor answer "answer to o"'],
    ]);
  });
});
