import { describe, expect, it } from 'vitest';
import type { QuestionResult } from '../../src/report/schema.js';
import { arraySource } from '../../src/report/source.js';
import { computeMetrics } from '../../src/score/metrics/index.js';
import { summarize } from '../../src/score/summary.js';
import { makeReport } from '../helpers/report-fixture.js';
import { ans, res } from '../helpers/results.js';

// Golden output of computeMetrics and summarize, taken before the streaming rewrite: it must not move.
const seq = (...s: string[]): QuestionResult['expected'] => ({ expect: 'answer', sequence: s });
const floor = (score = 5) => ans(99, score, { is_dummy_floor_answer: true, label: 'floor' });

function edgeCases(): QuestionResult[] {
  return [
    res({ id: 'e1', outcome: 'correct', expected: { expect: 'answer', category: ['Billing', 'Pay'] }, answers: [ans(1, 9, { category: 'Other' })], rank: null, tags: ['a', 'a', 'b'] }),
    res({ id: 'e2', outcome: 'wrong', expected: seq('2'), answers: [ans(3, 9, { category: 'Shop' }), ans(2, 5, { category: 'Cards' })], rank: 2, margin: 4, language: 'it' }),
    res({ id: 'e3', outcome: 'abstained', expected: seq('2'), answers: [] }),
    res({ id: 'e4', outcome: 'abstained', expected: { expect: 'answer', label: ['shop-label'] }, answers: [floor(0)] }),
    res({ id: 'e5', outcome: 'abstained', expected: { expect: 'answer', label: ['label-3'] }, answers: [] }),
    res({ id: 'e6', outcome: 'fallback_ok', expected: { expect: 'fallback' }, answers: [floor(2)] }),
    res({ id: 'e7', outcome: 'fallback_missed', expected: { expect: 'fallback' }, answers: [ans(8, 60), ans(9, 60)], margin: 0 }),
    res({ id: 'e8', outcome: 'wrong', expected: { expect: 'answer', answer: ['text'] }, answers: [ans(4, 60, { label: '' })], rank: null }),
    res({ id: 'e9', outcome: 'unlabeled', answers: [ans(3, 50, { is_suggestion_answer: true, is_dummy_answer: true })] }),
    res({ id: 'e10', outcome: 'error', expected: seq('1'), latencyMs: null }),
    res({ id: 'e11', outcome: 'correct', expected: seq('5'), answers: [ans(5, 0.25), ans(6, 0.125)], rank: 1, margin: 0.125, latencyMs: 0.4 }),
  ];
}

const cases: [string, () => QuestionResult[]][] = [
  ['fixture 600', () => makeReport(600).results],
  ['fixture 250 seed 7', () => makeReport(250, { seed: 7 }).results],
  ['edge cases', edgeCases],
  ['all errors', () => [res({ id: 'x1', outcome: 'error', latencyMs: null }), res({ id: 'x2', outcome: 'error', expected: seq('1'), latencyMs: null })]],
  ['unlabeled only', () => [res({ id: 'u1', outcome: 'unlabeled', answers: [ans(1, 3)] })]],
  ['empty', () => []],
];

describe('computeMetrics and summarize: golden output', () => {
  for (const [name, make] of cases) {
    it(name, () => {
      const results = make();
      expect({ summary: summarize(results), metrics: computeMetrics(arraySource(results)) }).toMatchSnapshot();
    });
  }
});
