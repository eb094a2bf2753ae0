import { describe, expect, it } from 'vitest';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { checkKb, loadKnowledgeBase, parseKbCsv, parseKbJsonl } from '../../src/engine/kb.js';
import { InputError } from '../../src/errors.js';
import { tempDir } from '../helpers/tmp.js';

describe('knowledge base', () => {
  it('reads JSONL with tags as string or array and defaults', () => {
    const text = [
      '{"sequence_number": 1, "answer": "Hi!", "tags": "hello|human", "examples": ["hello"], "small_talk": true}',
      '',
      '{"sequence_number": "2", "answer": "Pay online.", "tags": ["billing"], "language": "IT", "sub_category": "pay"}',
    ].join('\n');
    const { entries, problems } = parseKbJsonl(text, 'kb.jsonl');
    expect(problems).toEqual([]);
    expect(entries[0]).toMatchObject({ sequenceNumber: 1, tags: ['hello', 'human'], language: 'en', smallTalk: true, line: 1 });
    expect(entries[1]).toMatchObject({ sequenceNumber: 2, tags: ['billing'], language: 'it', subCategory: 'pay', examples: [], line: 3 });
  });

  it('reads CSV with a BOM, " || " examples and a quoted multi-line field', () => {
    const text = '\uFEFFsequence_number,answer,examples,small_talk\n7,"two\nlines",how do I pay || pay bill,false\n8,ok,,\n';
    const { entries, problems } = parseKbCsv(text, 'kb.csv');
    expect(problems).toEqual([]);
    expect(entries[0]).toMatchObject({ sequenceNumber: 7, examples: ['how do I pay', 'pay bill'], line: 2, smallTalk: false });
    expect(entries[1]).toMatchObject({ sequenceNumber: 8, line: 4 });
  });

  it('reports every bad row as file:line with what was expected', async () => {
    const dir = tempDir('answer-eval-kb-');
    const file = join(dir, 'kb.jsonl');
    await writeFile(file, [
      '{"sequence_number": 1, "answer": "a"}',
      '{"sequence_number": -3, "answer": "b"}',
      '{"sequence_number": 1, "answer": ""}',
      'not json',
      '{"sequence_number": 1, "answer": "dup", "exemples": []}',
      '{"sequence_number": 5, "answer": "d", "tags": 3}',
    ].join('\n'));
    const error = await loadKnowledgeBase(file).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    const lines = (error as InputError).problems.map((p) => `${p.line}: ${p.message}`);
    expect(lines).toEqual([
      expect.stringMatching(/^2: field "sequence_number"/),
      expect.stringMatching(/^3: field "answer": a non-empty text/),
      expect.stringMatching(/^4: not valid JSON/),
      expect.stringMatching(/^5: unknown field "exemples"/),
      expect.stringMatching(/^6: field "tags" has the wrong type \(a string "a\|b" or an array of strings\)/),
    ]);
    expect((error as InputError).message).toContain(`${file}:4: not valid JSON`);
  });

  it('reports duplicate sequence numbers and a missing file', async () => {
    const dir = tempDir('answer-eval-kb-');
    const file = join(dir, 'kb.csv');
    await writeFile(file, 'sequence_number,answer\n1,a\n1,b\n');
    await expect(loadKnowledgeBase(file)).rejects.toThrow(`${file}:3: sequence_number 1 is already used on line 2`);
    await expect(loadKnowledgeBase(join(dir, 'nope.jsonl'))).rejects.toThrow(/nope\.jsonl: no such file$/);
  });

  it('says once that a CSV without sequence_number or answer columns is no knowledge base (a question set, most often), and a missing field is missing', async () => {
    const dir = tempDir('answer-eval-kb-');
    const questions = join(dir, 'questions.csv');
    await writeFile(questions, 'id,question,expected_label\nq1,hello,greeting\nq2,bye,goodbye\n');
    const error = await loadKnowledgeBase(questions).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).message.split('\n')).toEqual([
      `${questions}:1: the header has no "sequence_number" or "answer" column (found: id, question, expected_label): a knowledge base has a row per entry, with sequence_number and answer; this looks like a question set (give it as --dataset)`,
    ]);
    const jsonl = join(dir, 'questions.jsonl');
    await writeFile(jsonl, '{"id":"q1","question":"hello","expected_label":"greeting"}\n{"id":"c1","turns":[{"question":"hi"}]}\n');
    await expect(loadKnowledgeBase(jsonl)).rejects.toThrow(
      new InputError([{ file: jsonl, line: 1, message: 'no row has "sequence_number" and "answer", and each has "question" or "turns": a knowledge base has a row per entry; this looks like a question set (give it as --dataset)' }]),
    );
    const missing = join(dir, 'kb.jsonl');
    await writeFile(missing, '{"answer":"Hi"}\n');
    await expect(loadKnowledgeBase(missing)).rejects.toThrow(`${missing}:1: field "sequence_number" is missing (every entry needs it: a whole number such as 42)`);
  });

  it('reads follow-ups, dialogue-only entries and delays from JSONL and CSV', () => {
    const jsonl = [
      '{"sequence_number": 10, "answer": "Which meter?", "follow_ups": [11, 12], "examples": ["send a reading"]}',
      '{"sequence_number": 11, "answer": "Now the reading.", "dialogue_only": true, "follow_ups": "12", "delay": 2}',
      '{"sequence_number": 12, "answer": "Recorded.", "dialogue_only": "yes", "delay": "0.5"}',
    ].join('\n');
    const { entries, problems } = parseKbJsonl(jsonl, 'kb.jsonl');
    expect(problems).toEqual([]);
    expect(checkKb(entries, 'kb.jsonl')).toEqual([]);
    expect(entries.map((e) => [e.followUps, e.dialogueOnly, e.delay])).toEqual([
      [[11, 12], false, undefined],
      [[12], true, 2],
      [[], true, 0.5],
    ]);
    const csv = 'sequence_number,answer,follow_ups,dialogue_only,delay\n10,Which meter?,11 | 12,,\n11,Now the reading.,,true,3\n12,Recorded.,,1,\n';
    const parsed = parseKbCsv(csv, 'kb.csv');
    expect(parsed.problems).toEqual([]);
    expect(parsed.entries.map((e) => [e.followUps, e.dialogueOnly, e.delay])).toEqual([
      [[11, 12], false, undefined],
      [[], true, 3],
      [[], true, undefined],
    ]);
  });

  it('reports bad follow-up fields as file:line', async () => {
    const dir = tempDir('answer-eval-kb-');
    const file = join(dir, 'kb.jsonl');
    await writeFile(file, [
      '{"sequence_number": 1, "answer": "a", "follow_ups": [2, 99]}',
      '{"sequence_number": 2, "answer": "b", "dialogue_only": true}',
      '{"sequence_number": 3, "answer": "c", "follow_ups": ["two"]}',
      '{"sequence_number": 4, "answer": "d", "delay": -1}',
      '{"sequence_number": 5, "answer": "e", "dialogue_only": "sometimes"}',
      '{"sequence_number": 6, "answer": "f", "dialogue_only": true, "follow_ups": [7]}',
      '{"sequence_number": 7, "answer": "g", "dialogue_only": true, "follow_ups": [6]}',
      '{"sequence_number": 8, "answer": "h", "follow_ups": [9]}',
      '{"sequence_number": 9, "answer": "i", "language": "it", "dialogue_only": true}',
    ].join('\n'));
    const error = await loadKnowledgeBase(file).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    const lines = (error as InputError).problems.map((p) => `${p.line}: ${p.message}`);
    expect(lines).toEqual([
      '3: field "follow_ups" has the wrong type (an array of sequence numbers such as [31, 32], or in CSV "31|32")',
      '4: field "delay": seconds to wait before the next question, a number >= 0 such as 2 (leave it out for "-1", none)',
      '5: field "dialogue_only" has the wrong type (true or false)',
      '1: field "follow_ups": no entry has sequence_number 99 (a follow-up names another entry of this file)',
      '8: field "follow_ups": entry 9 is in "it", this one in "en" (a dialogue stays in one language)',
      // 6 and 7 lead to each other, but no entry of the normal index leads to either
      expect.stringMatching(/^6: dialogue_only entry that no dialogue leads to/),
      expect.stringMatching(/^7: dialogue_only entry that no dialogue leads to/),
    ]);
    expect((error as InputError).message).toContain(`${file}:1: field "follow_ups": no entry has sequence_number 99`);
  });

  it('reports a bad follow_ups cell in CSV with its line', () => {
    const { problems } = parseKbCsv('sequence_number,answer,follow_ups\n1,a,2;3\n', 'kb.csv');
    expect(problems.map((p) => `${p.line}: ${p.message}`)).toEqual([expect.stringMatching(/^2: field "follow_ups" has the wrong type/)]);
  });
});
