import { describe, expect, it } from 'vitest';
import { markupViews, type MarkupView } from '../../src/client/secrets/markup-view.js';
import { Secrets } from '../../src/client/secrets/secrets.js';
import { mulberry32 } from '../../src/util/random.js';

// A secret split by markup stands whole only in the text a person reads (markup removed, entities decoded): it is
// found there and masked where its pieces stand in the raw text, the markup between them included.

const CODE = 'Zq7Kx9-SECRET-4fW2pL';
const code = (value: string): Secrets => new Secrets([{ kind: 'agent code', value }]);
const head = CODE.slice(0, 9);
const tail = CODE.slice(9);
// The reference reader: XML's and HTML's constructs as one regular expression each (CDATA's text is group 1).
const NAME = String.raw`A-Za-z_:\u0080-\uffff`;
const ATTRIBUTES = String.raw`(?:[^>"'=]+|=\s*"[^"]*(?:"|$)|=\s*'[^']*(?:'|$)|[="'])*`;
const TAGS = String.raw`<\/?[${NAME}]${ATTRIBUTES}(?:>|$)|<\/>|<\/[^${NAME}>][^>]*(?:>|$)`;
const REFERENCE = {
  xml: new RegExp(String.raw`<!--[\s\S]*?(?:-->|$)|<!\[CDATA\[([\s\S]*?)(?:\]\]>|$)|<\?[\s\S]*?(?:\?>|$)|<![^>]*(?:>|$)|${TAGS}`, 'g'),
  html: new RegExp(String.raw`<!--(?:>|->|[\s\S]*?(?:--!?>|$))|<[!?][^>]*(?:>|$)|${TAGS}`, 'g'),
};
const referenceRules = (source: string): RegExp[] => (source.includes('<!') || source.includes('<?') ? [REFERENCE.xml, REFERENCE.html] : [REFERENCE.xml]);

/** The text the reference reads, when markup stands between two pieces of text (else no view is made). */
function referenceText(source: string, rules: RegExp): string | undefined {
  const pieces: string[] = [];
  let at = 0;
  rules.lastIndex = 0;
  for (let m = rules.exec(source); m !== null; m = rules.exec(source)) {
    pieces.push(source.slice(at, m.index), m[1] ?? '');
    at = m.index + m[0].length;
  }
  pieces.push(source.slice(at));
  return pieces.filter((p) => p !== '').length >= 2 ? pieces.join('') : undefined;
}

/** Every code unit may stand in a secret: every view is made. */
const ALL = { spaced: false, joins: new Uint8Array(0x10000).fill(1) };
const texts = (source: string): string[] => markupViews(source, ALL, false).map((v) => v.text);

describe('markupViews: the text a person reads', () => {
  it('removes tags, comments, processing instructions and declarations; reads CDATA as text (XML) or a comment (HTML)', () => {
    expect(texts('a<b>c</b>d')).toEqual(['acd']);
    expect(texts('<?xml version="1.0"?><!DOCTYPE x><r>a<!-- c -->b<?pi d>e?>f</r>')).toEqual(['abf', 'abe?>f']);
    expect(texts('x<![CDATA[a<b>]]><![CDATA[c]]>y')).toEqual(['xa<b>cy', 'x]]>y']); // HTML: a bogus comment ends at the first >
    expect(texts('a<!-->b<!--->c--!>d-->e')).toEqual(['ac--!>d-->e', 'abc--!>d-->e']);
    expect(texts('a<!-- x --!>b')).toEqual(['ab']); // by XML's rules the comment runs to the end
  });

  it('honours quoted attribute values, reads `<` that starts no tag as text, and runs an unterminated construct to the end', () => {
    expect(texts('a<i title=">" x=\'>\'>b</i>c')).toEqual(['abc']);
    expect(texts('a<i x">b')).toEqual(['ab']); // a quote opens a value only after `=`
    expect(texts('1 < 2 <3 a</>b</')).toEqual(['1 < 2 <3 ab</']);
    expect(texts('a<b x="never closed')).toEqual([]); // text on one side only: no secret stands across it
    expect(texts('a<b>b<b x="never closed')).toEqual(['ab']);
    expect(texts('a<b>b<!-- never closed')).toEqual(['ab']);
    expect(texts('no markup at all')).toEqual([]);
  });

  it('makes a view only where markup stands between two characters that may be in a secret', () => {
    const letters = { spaced: false, joins: new Uint8Array(0x10000).map((_, c) => ((c | 32) >= 97 && (c | 32) <= 122 ? 1 : 0)) };
    expect(markupViews('<r>\n  <a>1</a> <b>x</b>\n</r>', letters, false)).toEqual([]);
    expect(markupViews('<r><a>x</a><b>y</b> z<i></i></r>', letters, false)).toEqual([{ text: 'xy z', from: undefined, to: undefined }]);
  });

  it('puts a space where markup stood too, for secrets that hold a space', () => {
    expect(markupViews('a<br>b<b></b>c', { ...ALL, spaced: true }, false).map((v) => v.text)).toEqual(['abc', 'a b  c']);
  });

  it('says where each character came from, with and without a space for each construct', () => {
    const plain = (views: MarkupView[]) => views.map((v) => ({ text: v.text, from: [...v.from!], to: [...v.to!] }));
    expect(plain(markupViews('ab<i>c</i>d', ALL, true))).toEqual([{ text: 'abcd', from: [0, 1, 5, 10], to: [1, 2, 6, 11] }]);
    expect(plain(markupViews('ab<i>c</i>d', { ...ALL, spaced: true }, true))[1]).toEqual({ text: 'ab c d', from: [0, 1, 2, 5, 6, 10], to: [1, 2, 5, 6, 10, 11] });
    expect(plain(markupViews('a<![CDATA[b]]>c', ALL, true))).toEqual([{ text: 'abc', from: [0, 10, 14], to: [1, 11, 15] }, { text: 'ac', from: [0, 14], to: [1, 15] }]);
  });

  it('reads what a reference reader (one regular expression a set of rules) reads, each character where it came from', () => {
    const random = mulberry32(41);
    const PIECES = ['<', '>', '/', '!', '?', '--', '-', '[CDATA[', ']]>', '"', "'", '=', ' ', 'a', 'b', 'Z', '\n', '&amp;', 'é', '<a', '</', '<!--', '<?', '<![CDATA['];
    for (let n = 0; n < 3_000; n++) {
      const source = Array.from({ length: Math.floor(random() * 24) }, () => PIECES[Math.floor(random() * PIECES.length)]!).join('');
      const expected = [...new Set(referenceRules(source).map((rules) => referenceText(source, rules)))].filter((t) => t !== undefined);
      expect(markupViews(source, ALL, true).map((v) => v.text), source).toEqual(expected);
      for (const v of markupViews(source, { ...ALL, spaced: true }, true)) {
        expect(v.from!.length, source).toBe(v.text.length);
        for (let i = 0; i < v.text.length; i++) {
          const piece = source.slice(v.from![i], v.to![i]);
          expect(piece === v.text[i] || (v.text[i] === ' ' && (piece.startsWith('<') || piece === ']]>')), source).toBe(true);
          if (i > 0) expect(v.from![i]!, source).toBeGreaterThanOrEqual(v.to![i - 1]!);
        }
      }
    }
  });

  it('is linear in the text, whatever markup a hostile body holds', () => {
    for (const unit of ['<a', '<!--', '<a x="', '<![CDATA[', '<?', '< ', '</', '<a b=c ']) {
      const text = unit.repeat(Math.ceil(1_000_000 / unit.length));
      const started = performance.now();
      code(CODE).mask(text);
      expect(performance.now() - started, unit).toBeLessThan(3_000); // linear: tens of ms; quadratic: hours
    }
    const tags = `${'<b>x</b>'.repeat(125_000)}`;
    const started = performance.now();
    expect(code(CODE).mask(tags)).toBe(tags);
    expect(performance.now() - started).toBeLessThan(3_000);
  });
});

describe('a secret split by markup', () => {
  const secrets = code(CODE);
  // each split code, and what masking leaves of the text around it
  const cases: [string, string, string][] = [
    ['a comment', `${head}<!-- -->${tail}`, '<agent code>'],
    ['empty tags', `${head}<b></b>${tail}`, '<agent code>'],
    ['a tag around a piece', `${head}<b>${tail}</b>`, '<agent code></b>'],
    ['tags with attributes', `<span class="a">${head}</span><span data-x="1>2">${tail}</span>`, '<span class="a"><agent code></span>'],
    ['CDATA sections', `<![CDATA[${head}]]><![CDATA[${tail}]]>`, '<![CDATA[<agent code>]]>'],
    ['a processing instruction', `${head}<?x y?>${tail}`, '<agent code>'],
    ['a declaration', `${head}<!x>${tail}`, '<agent code>'],
    ['a tag and a hex reference', `${head}<i></i>&#x${tail.charCodeAt(0).toString(16)};${tail.slice(1)}`, '<agent code>'],
    ['a tag and decimal references', `${head}<i></i>${[...tail].map((c) => `&#${c.charCodeAt(0)};`).join('')}`, '<agent code>'],
    ['a tag and a decimal reference', `${head.slice(0, 6)}&#45;<b></b>${head.slice(7)}${tail}`, '<agent code>'],
    ['markup in every gap', [...CODE].join('<b></b>'), '<agent code>'],
    ['an HTML comment closed by --!>', `${head}<!-- x --!>${tail}`, '<agent code>'],
    ['in lower case', `${head.toLowerCase()}<b></b>${tail.toLowerCase()}`, '<agent code>'],
  ];

  it.each(cases)('is found and masked where it stands, markup between its pieces included: %s', (_, split, masked) => {
    const text = `before ${split} after`;
    expect(secrets.holds(text)).toBe(true);
    expect(secrets.mask(text)).toBe(`before ${masked} after`);
  });

  it('masks a secret with a named reference in it, and one with a space across a line break', () => {
    const amp = code('ab&cd-XYZ1');
    expect(amp.mask('x ab&amp;<b></b>cd-XYZ1 y')).toBe('x <agent code> y');
    const spaced = code('open sesame 42');
    expect(spaced.mask('<p>open</p><p>sesame 42</p>')).toBe('<p><agent code></p>');
    expect(spaced.mask('x open<br>sesame<b></b> 42')).toBe('x <agent code>');
  });

  it('leaves a body with markup and no secret as it is', () => {
    const page = `<html><body><h1>Error</h1><p>${head.slice(0, 5)}<b>!</b> ${tail}</p><!-- ${head} --></body></html>`;
    expect(secrets.holds(page)).toBe(false);
    expect(secrets.mask(page)).toBe(page);
  });

  it('masks the start of a secret cut right after it, split by markup', () => {
    expect(secrets.maskCut(`quoted: "${head}<!-- -->${tail.slice(0, 3)}…"`)).toBe('quoted: "<agent code>…"');
    expect(secrets.maskCut(`quoted: "${head.slice(0, 4)}<b></b>${head.slice(4)}…"`)).toBe('quoted: "<agent code>…"');
    expect(secrets.maskCut('quoted: "<b>x</b>…"')).toBe('quoted: "<b>x</b>…"');
  });
});
