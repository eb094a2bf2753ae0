import { describe, expect, it } from 'vitest';
import { cellValue, safeCell } from '../../src/model/csv-cell.js';

// A cell written safe for a spreadsheet reads back as the value it stands for.

describe('CSV cells', () => {
  it('reads back every value safeCell writes, formula-like or not', () => {
    for (const text of ['=SUM(A1)', '+39 prefix', '-5 degrees', '@home', '\tx', '＝1', 'plain', "'quoted", "it's", '', "'"]) {
      expect(cellValue(safeCell(text))).toBe(text);
    }
  });

  it("drops the ' only before a character a spreadsheet would take for a formula", () => {
    expect(cellValue("'=1+2")).toBe('=1+2');
    expect(cellValue("'hello")).toBe("'hello");
    expect(cellValue("''=x")).toBe("''=x");
  });
});
