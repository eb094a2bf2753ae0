import { describe, expect, it } from 'vitest';
import { editedLine, jsonlLines } from '../../src/label/jsonl-edit.js';
import { editRow, parseSet, replaceRow, SetEditError } from '../../src/label/set-file.js';
import { scanDataset } from '../../src/dataset/read.js';
import { tempDir, writeTemp } from '../helpers/tmp.js';

// A set's rows found by id, edited in place; every other byte kept.

describe('CSV sets', () => {
  const text = 'id,question,expected_label,expect,notes\r\nq1,hello,,,"a, b"\r\n\r\n"q2","how, ""quoted""",billing,,\r\n,no id here,,,\r\n';

  it('rows by id (or line without one), what each expects, and the column labels go into', () => {
    const set = parseSet(text, 'csv');
    expect([...set.rows.keys()]).toEqual(['q1', 'q2', '5']);
    expect(set.rows.get('q2')).toMatchObject({ line: 4, question: 'how, "quoted"', values: { expected_label: 'billing', expect: '' }, conversation: false });
    expect(set.column).toBe('expected_label');
  });

  it('edits one row’s cells, every other byte kept; puts it back', () => {
    const set = parseSet(text, 'csv');
    const edit = editRow(set, 'q2', new Map([['expected_label', 'refund, now']]));
    expect(edit.text).toBe(text.replace('billing', '"refund, now"'));
    expect(edit.before).toBe('"q2","how, ""quoted""",billing,,');
    expect(edit.after).toBe('"q2","how, ""quoted""","refund, now",,');
    expect(edit.added).toEqual([]);
    expect(replaceRow(parseSet(edit.text, 'csv'), 'q2', edit.after, edit.before)).toBe(text);
    expect(replaceRow(parseSet(text, 'csv'), 'q2', edit.after, edit.before)).toBeUndefined();
  });

  it("reads a cell protected from spreadsheets as the dataset reader does, and writes one so", async () => {
    const safe = "id,question,expected_label\nq1,'=SUM(A1) is wrong,\n";
    const set = parseSet(safe, 'csv');
    expect(set.rows.get('q1')?.question).toBe('=SUM(A1) is wrong');
    const edit = editRow(set, 'q1', new Map([['expected_label', '-discount']]));
    expect(edit.after).toBe("q1,'=SUM(A1) is wrong,'-discount");
    const dir = tempDir();
    const path = writeTemp(dir, 'set.csv', edit.text);
    expect((await scanDataset(path)).questions.map((q) => [q.question, q.expected.label])).toEqual([['=SUM(A1) is wrong', ['-discount']]]);
  });

  it('adds a missing column: the header and each row end, before its own line break', () => {
    const set = parseSet(text, 'csv');
    const edit = editRow(set, '5', new Map([['expected_sequence', '12']]));
    expect(edit.text).toBe('id,question,expected_label,expect,notes,expected_sequence\r\nq1,hello,,,"a, b",\r\n\r\n"q2","how, ""quoted""",billing,,,\r\n,no id here,,,,12\r\n');
    expect(edit.added).toEqual(['expected_sequence']);
    expect(edit.before).toBe(',no id here,,,,');
  });

  it('a CSV the editor would read otherwise than the dataset reader is refused at its line', () => {
    expect(() => parseSet('id,question\nq1,"a"b\n', 'csv')).toThrow(SetEditError);
  });
});

describe('JSONL sets', () => {
  const text = '{"id":"q1","question":"hello","expected_sequence":[3, 4]}\n\n{"id": "q2", "question": "bye", "__proto__": 1}\r\n{"question":"third"}';

  it('only the edited line changes, its keys in their order, a new one last, a cleared one removed', () => {
    const set = parseSet(text, 'jsonl');
    expect([...set.rows.keys()]).toEqual(['q1', 'q2', '4']);
    expect(set.rows.get('q1')!.values['expected_sequence']).toBe('3 || 4');
    const one = editRow(set, 'q1', new Map([['expected_sequence', ''], ['expect', 'fallback']]));
    expect(one.text).toBe(text.replace('{"id":"q1","question":"hello","expected_sequence":[3, 4]}', '{"id":"q1","question":"hello","expect":"fallback"}'));
    const two = editRow(set, 'q2', new Map([['expected_sequence', '12']]));
    expect(two.text).toBe(text.replace('{"id": "q2", "question": "bye", "__proto__": 1}', '{"id":"q2","question":"bye","__proto__":1,"expected_sequence":12}'));
    expect(two.before).toBe('{"id": "q2", "question": "bye", "__proto__": 1}');
  });

  it('jsonlLines skips blank and bad lines; editedLine keeps a "__proto__" key a key', () => {
    expect(jsonlLines('{"a":1}\nnot json\n[1]\n\n{"b":2}').map((l) => l.line)).toEqual([1, 5]);
    expect(editedLine(JSON.parse('{"__proto__":{"x":1}}') as Record<string, unknown>, new Map([['expect', 'fallback']]))).toBe('{"__proto__":{"x":1},"expect":"fallback"}');
  });
});
