import { describe, expect, it } from 'vitest';
import { Groups } from '../../src/sample/groups.js';
import { foldGroups } from '../../src/sample/fold.js';
import { foldNearRepeats, sketchFloor } from '../../src/sample/near.js';
import { foldText } from '../../src/sample/normalise.js';
import { jaccard, trigrams } from '../../src/sample/trigrams.js';

describe('foldText', () => {
  it('case, spacing, punctuation, full-width forms and invisible characters', () => {
    expect(foldText('How  do I pay my bill??', undefined)).toBe('how do i pay my bill');
    expect(foldText('  how do i pay my bill ', undefined)).toBe('how do i pay my bill');
    expect(foldText('ＨＯＷ　ｄｏ ｉ pay\u200b my bill', undefined)).toBe('how do i pay my bill');
    expect(foldText('pay\tmy\nbill!', undefined)).toBe('pay my bill');
  });

  it("apostrophes and hyphens inside a word are dropped, other punctuation is a space; symbols stay", () => {
    expect(foldText("Where's my e-mail?", 'en')).toBe('wheres my email');
    expect(foldText("'quoted' - and (more)", 'en')).toBe('quoted and more');
    expect(foldText('c++ costs $100 😀', 'en')).toBe('c++ costs $100 😀');
    expect(foldText('version 3.5', 'en')).toBe('version 3 5');
  });

  it('placeholders of personal data stay placeholders: [email] is not the word email', () => {
    expect(foldText('Mail me at [email]!', 'en')).toBe('mail me at [email]');
    expect(foldText('mail me at email', 'en')).toBe('mail me at email');
    expect(foldText('[foo] bar', 'en')).toBe('foo bar');
  });

  it('accents are folded where the language allows, kept elsewhere and when it is not known', () => {
    expect(foldText('Café ouvert ?', 'fr')).toBe('cafe ouvert');
    expect(foldText('Cómo pago mi factura', 'es')).toBe('como pago mi factura');
    expect(foldText('naïve café', 'en')).toBe('naive cafe');
    expect(foldText('año', 'es')).toBe('año'); // ñ is a letter of its own
    expect(foldText('Wie kann ich zählen?', 'de')).toBe('wie kann ich zählen'); // zahlen is "pay"
    expect(foldText('Café', undefined)).toBe('café');
    expect(foldText('नमस्ते', 'en')).toBe('नमस्ते'); // marks of other scripts are part of the word
  });
});

describe('3-grams', () => {
  it('are taken with a space before and after the text', () => {
    // " abcd " → " ab", "abc", "bcd", "cd "; " abce " → " ab", "abc", "bce", "ce ": 2 shared of 6
    expect(trigrams('abcd').length).toBe(4);
    expect(jaccard(trigrams('abcd'), trigrams('abce'))).toBeCloseTo(2 / 6, 12);
    expect(jaccard(trigrams('pay'), trigrams('pay'))).toBe(1);
    expect(trigrams('aaaa').length).toBe(3); // " aa", "aaa", "aa ": distinct
  });

  it('measure the pairs the threshold was chosen from', () => {
    const j = (a: string, b: string): number => Math.round(jaccard(trigrams(a), trigrams(b)) * 100) / 100;
    expect(j('how do i pay my bill', 'how do i pay my bil')).toBe(0.86);
    expect(j('how do i pay my bill', 'how do i pay my bills')).toBe(0.86);
    expect(j('how do i pay my bill', 'how can i pay my bill')).toBe(0.64);
    expect(j('is the store open on sunday', 'is the store open on monday')).toBe(0.74);
    expect(j('cancel my order', 'cancel my account')).toBe(0.39);
  });
});

describe('near-repeats', () => {
  const fold = (texts: string[], similarity = 0.8, language?: number[]): string[] => {
    const { leaderOf } = foldNearRepeats({ textOf: (g) => texts[g]!, language: language ?? texts.map(() => 0), order: Int32Array.from(texts.keys()) }, similarity);
    return texts.map((_, g) => texts[leaderOf[g]!]!);
  };

  it('fold at the threshold and not below it', () => {
    // 18 letters, the last one changed: 16 of 18 3-grams shared, 20 in all: 0.8 exactly
    const at = ['abcdefghijklmnopqr', 'abcdefghijklmnopqx'];
    expect(jaccard(trigrams(at[0]!), trigrams(at[1]!))).toBe(0.8);
    expect(fold(at)).toEqual([at[0], at[0]]);
    // 17 letters: 15 of 17 shared, 19 in all: 0.789
    const below = ['abcdefghijklmnopq', 'abcdefghijklmnopx'];
    expect(jaccard(trigrams(below[0]!), trigrams(below[1]!))).toBeCloseTo(15 / 19, 12);
    expect(fold(below)).toEqual(below);
    expect(fold(below, 0.78)).toEqual([below[0], below[0]]);
  });

  it('each joins the most asked of its near-repeats that is kept, not a chain of them', () => {
    // most asked first: b is near a (its last letter), c near b (its first letter), c not near a (14 of 22 shared)
    const a = 'abcdefghijklmnopqr';
    const b = 'abcdefghijklmnopqx';
    const c = 'zbcdefghijklmnopqx';
    expect([jaccard(trigrams(a), trigrams(b)), jaccard(trigrams(b), trigrams(c)), jaccard(trigrams(a), trigrams(c))]).toEqual([0.8, 0.8, 14 / 22]);
    expect(fold([a, b, c])).toEqual([a, a, c]);
  });

  it('never fold across languages, or texts whose numbers differ', () => {
    expect(fold(['how do i renew my permit', 'how do i renew my permits'], 0.8, [1, 2])).toEqual(['how do i renew my permit', 'how do i renew my permits']);
    expect(fold(['windows 10 update problem', 'windows 11 update problem'])).toEqual(['windows 10 update problem', 'windows 11 update problem']);
  });

  it('similarity 1: exact repeats only', () => {
    expect(fold(['how do i pay my bill', 'how do i pay my bil'], 1)).toEqual(['how do i pay my bill', 'how do i pay my bil']);
  });

  it('a sketch agreement of 6 of 16 is what a pair at 0.8 misses but one time in 10^4', () => {
    // P(Binomial(16, 0.8) <= 5) = 3.3e-5, <= 6 is 2.5e-4
    expect(sketchFloor(0.8)).toBe(6);
    expect(sketchFloor(0.9)).toBeGreaterThan(sketchFloor(0.8));
  });

  it('find the same pairs as comparing every pair, on texts with typos', () => {
    // a deterministic set: 300 texts of 4-8 words, a third of them a typo of another
    let seed = 7;
    const next = (): number => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
    const words = Array.from({ length: 200 }, (_, i) => `w${'bcdfghjklmnprstvz'[i % 17]}${'aeiou'[i % 5]}${'kmt'[i % 3]}${i}`);
    const texts: string[] = [];
    while (texts.length < 300) {
      if (texts.length > 0 && next() < 0.33) {
        const t = texts[Math.floor(next() * texts.length)]!;
        const at = 1 + Math.floor(next() * (t.length - 2));
        const typo = /\d/.test(t[at]!) ? t : t.slice(0, at) + t.slice(at + 1);
        if (!texts.includes(typo)) texts.push(typo);
      } else texts.push(Array.from({ length: 4 + Math.floor(next() * 5) }, () => words[Math.floor(next() * words.length)]).join(' '));
    }
    const sets = texts.map((t) => trigrams(t));
    const kept: number[] = [];
    const brute = texts.map((_, x) => {
      let best = -1;
      let bestSimilarity = 0;
      for (const y of kept) {
        const s = jaccard(sets[x]!, sets[y]!);
        if ((texts[x]!.match(/\d+/g) ?? []).join() === (texts[y]!.match(/\d+/g) ?? []).join() && s >= 0.8 && s > bestSimilarity) [best, bestSimilarity] = [y, s];
      }
      if (best < 0) kept.push(x);
      return texts[best < 0 ? x : best];
    });
    expect(brute.filter((t, x) => t !== texts[x]).length).toBeGreaterThan(20);
    expect(fold(texts)).toEqual(brute);
  });
});

describe('groups', () => {
  it('count exact repeats per language, keep the first line, and fold near-repeats into the most asked', () => {
    const groups = new Groups();
    const lines: [string, number][] = [
      ['how do i pay my bill', 1],
      ['where is my parcel', 0],
      ['how do i pay my bill', 1],
      ['how do i pay my bil', 1],
      ['how do i pay my bill', 2],
      ['where is my parcel', 0],
      ['how do i pay my bill', 1],
    ];
    lines.forEach(([text, language], i) => groups.add(text, language, -1, i + 2));
    expect(groups.size).toBe(4);
    expect([...groups.count.subarray(0, 4)]).toEqual([3, 2, 1, 1]);
    expect([...groups.first.subarray(0, 4)]).toEqual([2, 3, 5, 6]);
    expect(groups.textOf(2)).toBe('how do i pay my bil');
    groups.counted();
    const folded = foldGroups(groups, 0.8);
    // "pay my bil" joins "pay my bill" (language 1: 3 + 1); the language 2 one stays apart; ties: the first asked first
    expect([...folded.leader]).toEqual([0, 1, 3]);
    expect([...folded.asked]).toEqual([4, 2, 1]);
    expect([...folded.of]).toEqual([0, 1, 0, 2]);
    expect(() => groups.add('more', 0, -1, 9)).toThrow(/after counted/);
  });
});
