import { describe, expect, it } from 'vitest';
import { depthExceededAt, JsonTextError, parseJsonText, printable, sizeText, splitLines, type Line, type LongLine } from '../../src/util/json-lines.js';

async function* chunksOf(...parts: (string | Buffer)[]): AsyncGenerator<Buffer> {
  for (const p of parts) yield Buffer.isBuffer(p) ? p : Buffer.from(p);
}

const collect = async (it: AsyncIterable<Line | LongLine>) => {
  const out: unknown[] = [];
  for await (const l of it) out.push('tooLong' in l ? { long: l.number, at: l.at, last: l.last, nul: l.nul, end: l.end, max: l.max } : { text: l.bytes.toString(), at: l.at, number: l.number, last: l.last });
  return out;
};

describe('splitLines', () => {
  it('splits across chunks, with each line’s byte offset and number, and marks a last line without its break', async () => {
    expect(await collect(splitLines(chunksOf('ab\nc', 'd\n\nef', 'g')))).toEqual([
      { text: 'ab', at: 0, number: 1, last: false },
      { text: 'cd', at: 3, number: 2, last: false },
      { text: '', at: 6, number: 3, last: false },
      { text: 'efg', at: 7, number: 4, last: true },
    ]);
    expect(await collect(splitLines(chunksOf('x\n'), { start: 100, firstLine: 7 }))).toEqual([{ text: 'x', at: 100, number: 7, last: false }]);
  });

  it('stops at a line longer than the maximum, before holding it, and says whether it held a NUL', async () => {
    expect(await collect(splitLines(chunksOf('ok\n', 'abcd', 'efgh', 'never read\n'), { maxBytes: 6 }))).toEqual([
      { text: 'ok', at: 0, number: 1, last: false },
      { long: 2, at: 3, last: false, nul: false, end: undefined, max: 6 },
    ]);
    expect(await collect(splitLines(chunksOf(Buffer.alloc(10)), { maxBytes: 6 }))).toEqual([{ long: 1, at: 0, last: false, nul: true, end: undefined, max: 6 }]);
  });

  it('with skipLong, skips a long line to its end and goes on; one the file ends in is last', async () => {
    expect(await collect(splitLines(chunksOf('abcdefgh', 'ij\nok\n', 'xxxxxxxxxx'), { maxBytes: 6, skipLong: true }))).toEqual([
      { long: 1, at: 0, last: false, nul: false, end: 11, max: 6 },
      { text: 'ok', at: 11, number: 2, last: false },
      { long: 3, at: 14, last: true, nul: false, end: 24, max: 6 },
    ]);
  });
});

describe('the nesting check', () => {
  it('finds where a text first nests deeper than the maximum, skipping strings', () => {
    expect(depthExceededAt('[[[1]]]', 3)).toBe(-1);
    expect(depthExceededAt('[[[[1]]]]', 3)).toBe(3);
    expect(depthExceededAt('{"a":"[[[[[[","b":[{}]}', 3)).toBe(-1);
    // the escaped quote does not end the string: its brackets are text; the fourth level opens at index 20
    expect(depthExceededAt('{"a":"\\"[[[[","b":[[[1]]]}', 3)).toBe(20);
  });

  it('parseJsonText refuses 5,000 levels before JSON.parse, and says what JSON.parse says otherwise', () => {
    const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    expect(() => parseJsonText(deep)).toThrow(new JsonTextError('nests arrays and objects more than 64 levels deep (at character 65), which nothing answer-eval reads needs', true));
    expect(parseJsonText(`${'['.repeat(64)}${']'.repeat(64)}`)).toBeInstanceOf(Array);
    expect(() => parseJsonText('{"a":\u0000}')).toThrow('holds NUL bytes, which no JSON text does (a damaged or binary file)');
    expect(() => parseJsonText('{"a":\u001b[31m}')).toThrow(/^Unexpected token '\\u001b'/);
  });
});

describe('printable and sizeText', () => {
  it('escapes control and bidirectional characters and cuts long text', () => {
    expect(printable('a\u001b[2Jb\u202ec\ufffd')).toBe('a\\u001b[2Jb\\u202ec\\ufffd');
    expect(printable('abcdef', 3)).toBe('abc…');
  });

  it('names sizes in GiB, MiB or KiB when whole', () => {
    expect([sizeText(512 * 1024 ** 2), sizeText(1024 ** 3), sizeText(64 * 1024), sizeText(1000)]).toEqual(['512 MiB', '1 GiB', '64 KiB', '1000 bytes']);
  });
});
