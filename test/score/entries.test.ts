import { describe, expect, it } from 'vitest';
import type { QuestionResult } from '../../src/model/report.js';
import { EntryIndex, EntryTable } from '../../src/score/metrics/entries.js';
import { ans, res, withReason } from '../helpers/results.js';

const label = (...l: string[]): QuestionResult['expected'] => ({ expect: 'answer', label: l });
const floor = ans(0, 10, { label: undefined, is_dummy_floor_answer: true, is_dummy_answer: true, is_agent_answer: false });
const billing = (score = 80) => ans(12, score, { label: 'billing', category: 'Accounts', answer: 'Your bill shows...' });
const payments = (score = 70) => ans(14, score, { label: 'payments', category: 'Accounts', answer: 'Pay by card.' });

function table(results: QuestionResult[], kb?: ConstructorParameters<typeof EntryIndex>[0]) {
  const index = new EntryIndex(kb);
  for (const r of results) index.add(r);
  const t = new EntryTable(index);
  for (const r of results) t.add(r);
  return Object.fromEntries(t.result().map((e) => [e.key, e]));
}

describe('the per-entry table', () => {
  // billing expected 4 times: right twice, lost once to payments, refused once; payments expected twice: right once,
  // lost once to billing; payments also took an out-of-scope question; errors and unlabeled rows do not count
  const results = [
    res({ id: 'b1', outcome: 'correct', expected: label('billing'), answers: [billing()], rank: 1 }),
    res({ id: 'b2', outcome: 'correct', expected: label('billing'), answers: [billing(), payments(20)], rank: 1 }),
    res({ id: 'b3', outcome: 'wrong', expected: label('billing'), answers: [payments(), billing(30)], rank: 2 }),
    res({ id: 'b4', outcome: 'abstained', expected: label('billing'), answers: [floor], rank: null }),
    res({ id: 'p1', outcome: 'correct', expected: { expect: 'answer', sequence: ['14'] }, answers: [payments()], rank: 1 }),
    res({ id: 'p2', outcome: 'wrong', expected: { expect: 'answer', sequence: ['14'] }, answers: [billing()], rank: null }),
    res({ id: 'o1', outcome: 'fallback_missed', expected: { expect: 'fallback' }, answers: [payments(60)] }),
    res({ id: 'o2', outcome: 'fallback_ok', expected: { expect: 'fallback' }, answers: [floor] }),
    res({ id: 'x1', outcome: 'error', expected: label('billing') }),
    res({ id: 'u1', outcome: 'unlabeled', answers: [billing()] }),
  ].map(withReason);
  const t = table(results);

  it('counts recall over the questions that expect an entry and precision over its top-1s (hand-counted)', () => {
    expect(t['billing']).toMatchObject({
      sequence: 12, label: 'billing', category: 'Accounts', text: 'Your bill shows...',
      expected: 4, correct: 2, refused: 1, answered: 3, answeredCorrectly: 2, recall: 0.5, precision: 2 / 3,
    });
    expect(t['billing']!.f1).toBeCloseTo((2 * 0.5 * (2 / 3)) / (0.5 + 2 / 3), 12);
    // a row expecting sequence 14 is attributed to the entry's label, learned from the run
    expect(t['payments']).toMatchObject({ sequence: 14, expected: 2, correct: 1, refused: 0, answered: 3, answeredCorrectly: 1, recall: 0.5, precision: 1 / 3 });
  });

  it('says where its questions went and whose it took, with example ids', () => {
    expect(t['billing']!.losesTo).toEqual([
      { key: '(refused)', count: 1, examples: ['b4'] },
      { key: 'payments', count: 1, examples: ['b3'] },
    ]);
    expect(t['billing']!.takesFrom).toEqual([{ key: 'payments', count: 1, examples: ['p2'] }]);
    expect(t['payments']!.takesFrom).toEqual([
      { key: '(out of scope)', count: 1, examples: ['o1'] },
      { key: 'billing', count: 1, examples: ['b3'] },
    ]);
  });

  it('adds up: every labeled in-scope question without error is expected by exactly one entry', () => {
    const expected = Object.values(t).reduce((n, e) => n + e.expected, 0);
    expect(expected).toBe(results.filter((r) => r.expected.expect === 'answer' && r.outcome !== 'error').length);
  });

  it('knows an entry the service never returned from the knowledge base: its category and text', () => {
    const never = [res({ id: 'n1', outcome: 'abstained', expected: label('moving'), answers: [floor] })];
    expect(table(never)['moving']).toMatchObject({ expected: 1, refused: 1, category: null, text: null });
    expect(table(never, [{ sequence: 30, label: 'moving', category: 'Contracts', text: 'Tell us your new address.' }])['moving']).toMatchObject({
      sequence: 30, category: 'Contracts', text: 'Tell us your new address.',
    });
  });
});
