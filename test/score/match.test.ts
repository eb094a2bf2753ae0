import { describe, expect, it } from 'vitest';
import { compileValue, valueProblem } from '../../src/model/expectations.js';
import { compileMatcher } from '../../src/score/match.js';
import { marginOf, rankOf, scoreOrder } from '../../src/score/rank.js';
import { ans } from '../helpers/results.js';

describe('compileValue', () => {
  it('plain values compare after normalization', () => {
    expect(compileValue('Pay  BY card')('pay by card')).toBe(true);
    expect(compileValue('pay')('pay by card')).toBe(false);
    expect(compileValue('pay')(undefined)).toBe(false);
  });
  it('contains: looks for the normalized text', () => {
    expect(compileValue('contains:BY  Card')('Pay by card, please')).toBe(true);
    expect(compileValue('contains:cash')('Pay by card')).toBe(false);
  });
  it('re: searches the normalized text, case-insensitive, unanchored unless ^ $', () => {
    expect(compileValue('re:pay(ment)?s?')('PAYMENTS and more')).toBe(true);
    expect(compileValue('re:^pay$')('payments')).toBe(false);
    expect(compileValue('re:^pay by card$')('Pay\tby  card')).toBe(true);
  });
  it('names a regex that does not compile', () => {
    expect(valueProblem('re:(unclosed', 're:x')).toMatch(/^is not a valid regular expression: .*Unterminated group.* \(e\.g\. re:x\)$/);
    expect(valueProblem('re:ok', 're:x')).toBeUndefined();
    expect(valueProblem('(not a regex)', 're:x')).toBeUndefined();
    expect(valueProblem('re:(a)\\1', 're:x')).toMatch(/^cannot be run: it uses a backreference/);
  });
  it('names an empty matcher (met by any text) and a prefix in another case (compared as text, never met)', () => {
    expect(['contains:', 're:', 'contains:  \t', 're: '].map((v) => valueProblem(v, 're:x'))).toEqual([
      'is an empty matcher: "contains:" with nothing after it is met by any text (e.g. contains:by card; leave the cell empty to expect nothing)',
      'is an empty matcher: "re:" with nothing after it is met by any text (e.g. re:^pay(ment)?s?$; leave the cell empty to expect nothing)',
      'is an empty matcher: "contains:" with nothing after it is met by any text (e.g. contains:by card; leave the cell empty to expect nothing)',
      'is an empty matcher: "re:" with nothing after it is met by any text (e.g. re:^pay(ment)?s?$; leave the cell empty to expect nothing)',
    ]);
    expect(valueProblem('CONTAINS:sun', 're:x')).toBe('starts with "CONTAINS:", which is no matcher: matcher prefixes are lower case (contains:sun; for the text itself, re:^contains:sun$)');
    expect(valueProblem('Re: your bill (2)', 're:x')).toBe('starts with "Re:", which is no matcher: matcher prefixes are lower case (re: your bill (2); for the text itself, re:^re: your bill \\(2\\)$)');
    // the regular expression it suggests matches the text
    expect(compileValue('re:^re: your bill \\(2\\)$')('Re:  your bill (2)')).toBe(true);
  });
});

describe('compileMatcher', () => {
  const item = ans(7, 80, { answer: 'Pay by card', label: 'payments', category: 'Billing', tags: ['card', 'pay'] });
  it('ANDs fields and ORs alternatives', () => {
    expect(compileMatcher({ label: ['billing', 'payments'], category: ['billing'] })(item)).toBe(true);
    expect(compileMatcher({ label: ['payments'], category: ['shipping'] })(item)).toBe(false);
    expect(compileMatcher({ sequence: ['3', '7'], answer: ['contains:card'] })(item)).toBe(true);
  });
  it('expected_tag is met by any of the answer tags', () => {
    expect(compileMatcher({ tag: ['pay'] })(item)).toBe(true);
    expect(compileMatcher({ tag: ['re:^ca'] })(item)).toBe(true);
    expect(compileMatcher({ tag: ['cash'] })(item)).toBe(false);
    expect(compileMatcher({ tag: ['pay'] })(ans(1, 1))).toBe(false);
  });
  it('maps an old sequence number through the aliases', () => {
    const aliases = new Map([[3, 7]]);
    expect(compileMatcher({ sequence: ['3'] }, aliases)(item)).toBe(true);
    expect(compileMatcher({ sequence: ['3'] })(item)).toBe(false);
    // the old number now means nothing: 7 is matched only through its alias
    expect(compileMatcher({ sequence: ['7'] }, new Map([[7, 9]]))(item)).toBe(false);
  });
  it('a missing label or category never matches', () => {
    expect(compileMatcher({ category: ['billing'] })(ans(1, 1))).toBe(false);
  });
});

describe('rank and margin', () => {
  it('orders by score, ties keep the server order', () => {
    expect(scoreOrder([ans(1, 10), ans(2, 30), ans(3, 30), ans(4, 20)])).toEqual([1, 2, 3, 0]);
    expect(scoreOrder([])).toEqual([]);
  });
  it('ranks the first matching answer, 1-based; null when none matches', () => {
    const answers = [ans(1, 10), ans(2, 30), ans(3, 30), ans(4, 20)];
    const order = scoreOrder(answers);
    expect(rankOf(answers, order, compileMatcher({ sequence: ['3'] }))).toBe(2);
    expect(rankOf(answers, order, compileMatcher({ sequence: ['1', '4'] }))).toBe(3);
    expect(rankOf(answers, order, compileMatcher({ sequence: ['9'] }))).toBeNull();
    expect(rankOf([], [], compileMatcher({ sequence: ['9'] }))).toBeNull();
  });
  it('margin is top-1 minus top-2 score', () => {
    const answers = [ans(1, 10), ans(2, 30), ans(3, 25)];
    expect(marginOf(answers, scoreOrder(answers))).toBe(5);
    expect(marginOf([ans(1, 4), ans(2, 4)], [0, 1])).toBe(0);
    expect(marginOf([ans(1, 4)], [0])).toBeNull();
  });
});
