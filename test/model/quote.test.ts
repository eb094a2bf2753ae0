import { describe, expect, it } from 'vitest';
import { cut, quote, quoteList, QUOTED_CHARS } from '../../src/model/quote.js';

// Every message that quotes a value from the input quotes it through one helper: quoted, on one line, cut.

describe('quote', () => {
  it('quotes text on one line, its backslashes as written', () => {
    expect(quote('pdf')).toBe('"pdf"');
    expect(quote('a\nb"c')).toBe('"a\\nb\\"c"');
    expect(quote('re:^(a+)\\1$')).toBe('"re:^(a+)\\1$"');
    expect(quote('\u0000\u001b\u0085\u2028')).toBe('"\\u0000\\u001b\\u0085\\u2028"');
    expect(quote(42)).toBe('42');
    expect(quote({ a: [1] })).toBe('{"a":[1]}');
  });

  it('cuts a long value to QUOTED_CHARS characters, ending in …, never inside a surrogate pair', () => {
    expect(quote('Z'.repeat(100_000))).toBe(`"${'Z'.repeat(QUOTED_CHARS - 1)}…"`);
    expect(quote({ a: 'x'.repeat(500) })).toBe(`{"a":"${'x'.repeat(QUOTED_CHARS - 7)}…`);
    const emoji = `${'a'.repeat(QUOTED_CHARS - 2)}🚀🚀`;
    expect(cut(emoji)).toBe(`${'a'.repeat(QUOTED_CHARS - 2)}…`);
    expect(cut('short')).toBe('short');
  });

  it('lists the first values and counts the rest', () => {
    expect(quoteList(['a', 'b', 'c'], 2)).toBe('"a", "b" and 1 more');
    expect(quoteList(Array.from({ length: 100_003 }, (_, i) => `c${i}`), 2, cut)).toBe('c0, c1 and 100,001 more');
  });
});
