import { describe, expect, it } from 'vitest';
import { gateAnnotation } from '../../src/job/gates.js';
import { compareReports } from '../../src/compare/compare.js';
import { nothingMeasured } from '../../src/model/measured.js';
import { comparisonWithVerdict, judge, verdictOf, withVerdict } from '../../src/gate/verdict.js';
import { GateResultSchema, VerdictSchema } from '../../src/model/verdict.js';
import { verdictHeadline, verdictMarkdown } from '../../src/report/verdict.js';
import { FILES, many, report, result } from '../compare/fixtures.js';

describe('gate records', () => {
  const base = report([...many('a', 8, 'correct'), result('e', 'correct')]);
  const head = report([...many('a', 7, 'correct'), result('a7', 'wrong'), result('e', 'error')]);
  const c = compareReports(base, head, { files: FILES, resamples: 50 });

  it('each gate carries its flag, metric, threshold, value, pass/fail and message', () => {
    const v = judge(head.summary, c, { quality: { minAccuracy: 0.9, maxErrorRate: 0.2 }, regression: { failOn: 'regression', maxBroken: 1 } })!;
    expect(v.results.map((r) => GateResultSchema.parse(r))).toEqual([
      { gate: '--min-accuracy', metric: 'top1Accuracy', threshold: 0.9, value: 7 / 8, passed: false, message: 'top1Accuracy 0.875 < --min-accuracy 0.9 (short by 0.025)' },
      { gate: '--max-error-rate', metric: 'errorRate', threshold: 0.2, value: 1 / 9, passed: true, message: 'error rate 0.111 <= --max-error-rate 0.2' },
      { gate: '--fail-on regression', metric: 'broken', threshold: 0, value: 1, passed: false, message: '1 broken question (a7) with --fail-on regression' },
      { gate: '--max-broken', metric: 'broken', threshold: 1, value: 1, passed: true, message: '1 broken <= --max-broken 1' },
    ]);
    expect(v.passed).toBe(false);
    expect(VerdictSchema.parse(v)).toEqual(v);
    const sig = judge(head.summary, c, { quality: {}, regression: { failOn: 'significant-regression', alpha: 0.1 } })!;
    expect(sig.results[0]).toMatchObject({ gate: '--fail-on significant-regression', metric: 'mcnemarP', threshold: 0.1, value: 1, passed: true });
  });

  it('no gate set: no verdict, and the reports stay as they were', () => {
    expect(judge(head.summary, c, { quality: {}, regression: {} })).toBeUndefined();
    expect(verdictOf([])).toBeUndefined();
    const { results: _r, ...h } = head;
    expect(withVerdict(h, undefined)).toBe(h);
    expect(comparisonWithVerdict(c, undefined)).toBe(c);
  });

  it('the verdict sits after run in report.json and after forced in compare.json', () => {
    const v = judge(head.summary, undefined, { quality: { minAccuracy: 0.5 }, regression: {} })!;
    const { results: _r, ...h } = head;
    expect(Object.keys(withVerdict(h, v))).toEqual(['schemaVersion', 'tool', 'run', 'gates', 'summary']);
    expect(Object.keys(comparisonWithVerdict(c, v)).slice(0, 7)).toEqual(['schemaVersion', 'tool', 'base', 'head', 'forced', 'gates', 'options']);
  });

  it('says the verdict in one line and as Markdown', () => {
    const v = judge(head.summary, c, { quality: { minAccuracy: 0.5 }, regression: { failOn: 'regression' } })!;
    expect(verdictHeadline(v)).toBe('1 of 2 gates FAILED: 1 broken question (a7) with --fail-on regression');
    expect(verdictHeadline(verdictOf([v.results[0]!])!)).toBe('every gate passed (1 gate)');
    expect(verdictMarkdown(v, (t) => t.replace(/</g, '&lt;'))).toEqual([
      '**❌ answer-eval: 1 of 2 gates FAILED**: 1 broken question (a7) with --fail-on regression',
      '',
      '- ✅ `--min-accuracy` passed: top1Accuracy 0.875 >= --min-accuracy 0.5',
      '- ❌ `--fail-on regression` FAILED: 1 broken question (a7) with --fail-on regression',
    ]);
  });

  it('a GitHub annotation stays one line', () => {
    expect(gateAnnotation('--max-broken', '3 broken > 1: a\nb, 100%')).toBe('::error title=answer-eval gate::--max-broken: 3 broken > 1: a%0Ab, 100%25');
  });
});

describe('nothing measured', () => {
  it('every question in error, or none asked; otherwise undefined', () => {
    const errors = report([result('a', 'error'), result('b', 'error')]);
    expect(nothingMeasured(errors)).toBe(
      'nothing was measured: every one of the 2 questions ended in error (see the error column of results.csv); check --base-url, the service and --timeout',
    );
    expect(nothingMeasured(report([result('a', 'error'), result('b', 'wrong')]))).toBeUndefined();
    const empty = report([]);
    expect(nothingMeasured(empty)).toBe('nothing was measured: no question was asked (qs.csv has no question to ask)');
    const shard = { ...empty, run: { ...empty.run, dataset: { ...empty.run.dataset, questions: 5 }, shard: { index: 3, count: 4, questions: 0 } } };
    expect(nothingMeasured(shard)).toBe('nothing was measured: no question was asked (shard 3/4 holds none of the 5 questions of qs.csv; use fewer shards than questions)');
  });

  it('more than half of the questions in error is too little, unless an error-rate gate decides', () => {
    const most = report([result('a', 'error'), result('b', 'error'), result('c', 'wrong')]);
    expect(nothingMeasured(most)).toBe(
      'too little was measured: 2 of the 3 questions (66.7%) ended in error, more than half, so the figures rest on the 1 the service answered (see the error column of results.csv); ' +
        'once the service answers, continue with run --resume DIR --rerun errors, or set --max-error-rate to judge such a run by its gates',
    );
    expect(nothingMeasured(most, { errorRateGated: true })).toBeUndefined();
    expect(nothingMeasured(report([result('a', 'error'), result('b', 'correct')]))).toBeUndefined(); // half is not more than half
  });
});
