import { describe, expect, it } from 'vitest';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadKnowledgeBase, parseKbCsv, parseKbJsonl } from '../../src/engine/kb.js';
import { InputError } from '../../src/errors.js';

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
    const dir = await mkdtemp(join(tmpdir(), 'kb-'));
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
    const dir = await mkdtemp(join(tmpdir(), 'kb-'));
    const file = join(dir, 'kb.csv');
    await writeFile(file, 'sequence_number,answer\n1,a\n1,b\n');
    await expect(loadKnowledgeBase(file)).rejects.toThrow(`${file}:3: sequence_number 1 is already used on line 2`);
    await expect(loadKnowledgeBase(join(dir, 'nope.jsonl'))).rejects.toThrow(/cannot read/);
  });
});
