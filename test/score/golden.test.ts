import { describe, expect, it } from 'vitest';
import type { QuestionResult } from '../../src/model/report.js';
import { arraySource } from '../../src/model/source.js';
import { computeMetrics } from '../../src/score/metrics/index.js';
import { summarize } from '../../src/score/summary.js';
import { makeReport } from '../helpers/report-fixture.js';
import { edgeCases } from '../helpers/edge-cases.js';
import { ans, res } from '../helpers/results.js';

const seq = (...s: string[]): QuestionResult['expected'] => ({ expect: 'answer', sequence: s });

// Golden output of computeMetrics and summarize, taken before the streaming rewrite: it must not move.
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
