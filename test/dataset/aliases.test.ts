import { describe, expect, it } from 'vitest';
import { parseAliases, readAliases } from '../../src/dataset/aliases.js';
import { tempDir, writeTemp } from '../helpers/tmp.js';

describe('parseAliases', () => {
  it('reads old,new pairs with a header and comments, resolving chains', () => {
    const { aliases, problems } = parseAliases('old,new\n# renumbered in May\n1,2\n\n2, 3\n10,20\n', 'a.csv');
    expect(problems).toEqual([]);
    expect([...aliases]).toEqual([[1, 3], [2, 3], [10, 20]]);
  });
  it('reports bad lines, repeats and cycles with file:line', () => {
    const { problems } = parseAliases('1,2\nx,3\n1,4\n5,6\n6,5\n', 'a.csv');
    expect(problems).toEqual([
      { file: 'a.csv', line: 2, message: '"x,3" is not "old,new" (two whole sequence numbers, e.g. 12,340)' },
      { file: 'a.csv', line: 3, message: '1 is already mapped at line 1' },
      { file: 'a.csv', line: 4, message: '5 leads back to itself (5 -> 6 -> 5)' },
      { file: 'a.csv', line: 5, message: '6 leads back to itself (6 -> 5 -> 6)' },
    ]);
  });
  it('readAliases throws every problem as an InputError', async () => {
    const dir = tempDir();
    await expect(readAliases(writeTemp(dir, 'bad.csv', '1;2\n'))).rejects.toThrow(/bad\.csv:1: "1;2" is not "old,new"/);
    await expect(readAliases(`${dir}/none.csv`)).rejects.toThrow(/none\.csv: no such file/);
  });
});
