import { describe, expect, it } from 'vitest';
import { addColumnSplices, applySplices, csvCell, csvDisagreement, CsvEditError, csvRecords, quotingOf, setCellsSplices } from '../../src/label/csv-edit.js';

// A CSV set edited cell by cell: records found with their places, cells replaced, a column added, nothing else moved.

describe('csvRecords', () => {
  it('finds each record, its line and its cells, across quoted line breaks, CRLF, blank lines and a BOM', () => {
    const text = '\uFEFFid,question\r\nq1,"two\r\nlines"\r\n\r\nq2,"say ""hi"", ok"\r\nq3,what does "floor" mean?';
    const records = csvRecords(text, ',');
    expect(records.map((r) => [r.line, r.cells.map((c) => c.value)])).toEqual([
      [1, ['id', 'question']],
      [2, ['q1', 'two\r\nlines']],
      [5, ['q2', 'say "hi", ok']],
      [6, ['q3', 'what does "floor" mean?']],
    ]);
    expect(text.slice(records[1]!.start, records[1]!.end)).toBe('q1,"two\r\nlines"');
    expect(text.slice(records[2]!.cells[1]!.start, records[2]!.cells[1]!.end)).toBe('"say ""hi"", ok"');
    expect(csvDisagreement(text, ',', records)).toBeUndefined();
  });

  it('semicolons and tabs; an empty last cell; a file ending without a line break', () => {
    expect(csvRecords('id;question;expected_label\nq1;a;\n', ';').map((r) => r.cells.map((c) => c.value))).toEqual([['id', 'question', 'expected_label'], ['q1', 'a', '']]);
    expect(csvRecords('a\tb', '\t')[0]!.cells.map((c) => [c.start, c.end])).toEqual([[0, 1], [2, 3]]);
  });

  it('a quote never closed, or text after a closing quote: refused at its line', () => {
    expect(() => csvRecords('id,question\nq1,"open\n', ',')).toThrow(new CsvEditError(2, 'a quote opened on this line is never closed'));
    expect(() => csvRecords('id,question\n\nq1,"a"b\n', ',')).toThrow(CsvEditError);
  });
});

describe('editing', () => {
  const text = 'id,question,expected_sequence\nq1,hello,\nq2,"a, b",7\n';
  const records = csvRecords(text, ',');

  it('sets a cell, quoting only what must be, every other byte kept', () => {
    expect(applySplices(text, setCellsSplices(records[1]!, new Map([[2, '12']]), ',', 'minimal'))).toBe('id,question,expected_sequence\nq1,hello,12\nq2,"a, b",7\n');
    expect(applySplices(text, setCellsSplices(records[2]!, new Map([[2, '']]), ',', 'minimal'))).toBe('id,question,expected_sequence\nq1,hello,\nq2,"a, b",\n');
    expect(csvCell('billing, "new"', ',', 'minimal')).toBe('"billing, ""new"""');
    expect(csvCell('x', ';', 'all')).toBe('"x"');
    expect(csvCell(' x', ',', 'minimal')).toBe('" x"');
  });

  it('adds a column: the header gets its name, every record an empty cell, before its own line break', () => {
    const crlf = '"id","question"\r\n"q1","a"\r\n\r\n"q2","b"';
    const recs = csvRecords(crlf, ',');
    expect(quotingOf(crlf, recs[0]!)).toBe('all');
    expect(applySplices(crlf, addColumnSplices(recs, 'expect', ',', 'all'))).toBe('"id","question","expect"\r\n"q1","a",""\r\n\r\n"q2","b",""');
    expect(quotingOf(text, records[0]!)).toBe('minimal');
    expect(applySplices(text, addColumnSplices(records, 'expect', ',', 'minimal'))).toBe('id,question,expected_sequence,expect\nq1,hello,,\nq2,"a, b",7,\n');
  });
});
