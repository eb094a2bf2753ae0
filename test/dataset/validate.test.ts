import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readKbRefs } from '../../src/dataset/kb-refs.js';
import { scanDataset } from '../../src/dataset/read.js';
import { checkDataset } from '../../src/dataset/validate.js';
import { tempDir, writeTemp } from '../helpers/tmp.js';
import { DATASET } from './validate-fixture.js';

const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url));
const dir = tempDir();

describe('readKbRefs', () => {
  it('reads sequence numbers, labels, categories and tags from JSONL and CSV alike', async () => {
    for (const name of ['kb.jsonl', 'kb.csv']) {
      const kb = await readKbRefs(fixture(name));
      expect([...kb.sequence]).toEqual(['1', '2', '3']);
      expect([...kb.label]).toEqual(['payments', 'refunds', 'opening-hours']);
      expect([...kb.category]).toEqual(['billing', 'shop']);
      expect([...kb.tag]).toEqual(['card', 'pay', 'refund', 'money']);
    }
  });
  it('reports a bad entry with file:line (through the engine\'s loader)', async () => {
    const path = writeTemp(dir, 'bad.jsonl', '{"sequence_number": 1, "answer": "a"}\n{"sequence_number": "x", "answer": "b"}\n{oops\n');
    await expect(readKbRefs(path)).rejects.toThrow(/bad\.jsonl:2: .*sequence_number[\s\S]*bad\.jsonl:3: not valid JSON/);
  });
});

describe('checkDataset', () => {
  it('lists every error and warning by line', async () => {
    const path = writeTemp(dir, 'qs.csv', DATASET);
    const kb = await readKbRefs(fixture('kb.jsonl'));
    const problems = checkDataset(await scanDataset(path), { kb, aliases: new Map([[12, 3]]) });
    expect(problems.map((p) => `${p.line} ${p.severity} ${p.message}`)).toEqual([
      '3 error the same question as line 2 ("how do  I pay?") expects something else (give both rows the same expectations, or reword one)',
      '5 error id "a" is already used at line 2 (ids must be unique)',
      expect.stringMatching(/^7 error expected_label "re:\(bad" is not a valid regular expression/),
      '8 error expected_label "nope": no label in the knowledge base matches it',
      '8 warning expected_category "Garden": no category in the knowledge base matches it',
      '9 warning the same question as line 4 ("When are you open?"), asked twice',
    ]);
  });
  it('checks sequence numbers through aliases, and patterns against the knowledge base', async () => {
    const path = writeTemp(dir, 'refs.jsonl', [
      { question: 'a', expected_sequence: 12 },
      { question: 'b', expected_sequence: 9 },
      { question: 'c', expected_label: 're:^pay', expected_tag: 'contains:fund' },
      { question: 'd', expected_label: 'contains:zzz' },
    ].map((r) => JSON.stringify(r)).join('\n'));
    const kb = await readKbRefs(fixture('kb.csv'));
    const problems = checkDataset(await scanDataset(path), { kb, aliases: new Map([[12, 3], [9, 4]]) });
    expect(problems.map((p) => `${p.line} ${p.severity} ${p.message}`)).toEqual([
      '2 error expected_sequence 9 (alias of 4) is not in the knowledge base',
      '4 error expected_label "contains:zzz": no label in the knowledge base matches it',
    ]);
  });
});
