import { describe, expect, it } from 'vitest';
import type { Expectations } from '../../src/model/expectations.js';
import type { ReportAnswer } from '../../src/model/report.js';
import { compileMatcher } from '../../src/score/match.js';
import { judge } from '../../src/score/outcome.js';
import { rankOf, scoreOrder } from '../../src/score/rank.js';
import { explain } from '../../src/score/reason.js';
import { ans } from '../helpers/results.js';

/** Judges and explains one question the way toResult does. */
function why(expect: 'answer' | 'fallback' | null, expected: Expectations, answers: ReportAnswer[]): string | undefined {
  const matcher = compileMatcher(expected);
  const order = scoreOrder(answers);
  const top = order[0] ?? -1;
  const outcome = judge({ expect, expected }, answers[top], matcher);
  const rank = Object.keys(expected).length > 0 ? rankOf(answers, order, matcher) : null;
  return explain({ outcome, expect, expected, matcher, answers, top, rank, order });
}

const billing = ans(12, 40, { label: 'billing', category: 'Accounts' });
const payments = ans(14, 61.2, { label: 'payments', category: 'Accounts', tags: ['money'] });
const floor = ans(0, 12.3, { label: undefined, is_dummy_floor_answer: true, is_dummy_answer: true, is_agent_answer: false });

describe('explain: why a question did not pass', () => {
  it('wrong: the expected field, what the top-1 is, and where the expected answer is', () => {
    expect(why('answer', { label: ['billing'] }, [payments, ans(3, 50), billing])).toBe(
      'expected label "billing"; top-1 is #14 "payments" (score 61.2); the expected answer #12 "billing" is at rank 3',
    );
    expect(why('answer', { label: ['billing'] }, [payments, ans(3, 50)])).toBe(
      'expected label "billing"; top-1 is #14 "payments" (score 61.2); no answer in the list meets the expectations',
    );
  });

  it('names only the fields the top-1 fails, with what it holds instead', () => {
    expect(why('answer', { category: ['Accounts'], tag: ['refunds', 're:^pay'] }, [payments])).toBe(
      'expected tag "refunds" or "re:^pay"; top-1 is #14 "payments" (score 61.2), with tags "money"',
    );
    expect(why('answer', { category: ['Shop'] }, [ans(7, 9, { label: undefined })])).toBe('expected category "Shop"; top-1 is #7 (score 9), with no category');
  });

  it('abstained: what was expected and how the service refused', () => {
    expect(why('answer', { sequence: ['12'] }, [floor, { ...billing, answer_score: 10 }])).toBe(
      'expected sequence 12; the service refused with the floor answer (score 12.3); the expected answer #12 "billing" is at rank 2',
    );
    expect(why('answer', {}, [])).toBe('expected a knowledge answer; the service refused with an empty answer list');
    expect(why('answer', {}, [ans(1, 20, { label: 'greeting', is_dummy_answer: true })])).toBe(
      'expected a knowledge answer; the service refused with a small-talk answer #1 "greeting" (score 20)',
    );
  });

  it('fallback missed: a refusal was expected', () => {
    expect(why('fallback', {}, [payments])).toBe('expected a refusal (out of scope); top-1 is #14 "payments" (score 61.2)');
  });

  it('says nothing for what passed, what was not labeled, and errors', () => {
    expect(why('answer', { label: ['payments'] }, [payments])).toBeUndefined();
    expect(why('fallback', {}, [floor])).toBeUndefined();
    expect(why(null, {}, [payments])).toBeUndefined();
  });

  it('keeps long values short', () => {
    const long = 'x'.repeat(500);
    expect(why('answer', { answer: [long] }, [ans(1, 5, { answer: long.replace(/x/g, 'y') })])!.length).toBeLessThan(200);
  });
});
