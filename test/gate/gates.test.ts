import { describe, expect, it } from 'vitest';
import { compareReports } from '../../src/compare/compare.js';
import { failures, qualityGates, regressionGates } from '../../src/gate/gates.js';
import yargs from 'yargs';
import { gateOptions } from '../../src/gate/options.js';
import { summarize } from '../../src/score/summary.js';
import { FILES, many, report, result } from '../compare/fixtures.js';

describe('quality gates', () => {
  // (12 correct + 1 fallback_ok) / 16 judged = 0.8125; 1 error of 17; fallback: 1 ok, 1 missed
  const summary = summarize([...many('c', 12, 'correct'), ...many('w', 2, 'wrong'), result('e', 'error'), result('fo', 'fallback_ok', null), result('fm', 'fallback_missed')]);

  it('says which gate failed and by how much', () => {
    const r = qualityGates(summary, { minAccuracy: 0.85, minAnswerableAccuracy: 0.8, maxErrorRate: 0.05, maxFallbackMissedRate: 0.25 });
    expect(r.map((g) => [g.gate, g.passed])).toEqual([
      ['--min-accuracy', false],
      ['--min-answerable-accuracy', true],
      ['--max-error-rate', false],
      ['--max-fallback-missed-rate', false],
    ]);
    expect(failures(r)).toEqual([
      'top1Accuracy 0.813 < --min-accuracy 0.85 (short by 0.037)',
      'error rate 0.059 > --max-error-rate 0.05 (over by 0.009)',
      'fallback missed rate 0.500 > --max-fallback-missed-rate 0.25 (over by 0.250)',
    ]);
  });

  it('passes at the boundary, judges only the gates set, and fails a minimum with nothing to measure', () => {
    expect(failures(qualityGates(summary, { minAccuracy: 13 / 16 }))).toEqual([]);
    expect(qualityGates(summary, {})).toEqual([]);
    const none = summarize([result('u', 'unlabeled')]);
    expect(failures(qualityGates(none, { minAccuracy: 0.5, maxFallbackMissedRate: 0 }))).toEqual([
      'top1Accuracy n/a (no labeled question without error) cannot meet --min-accuracy 0.5',
    ]);
  });
});

describe('regression gates', () => {
  const base = report([...many('b', 1, 'correct'), ...many('f', 9, 'wrong'), ...many('s', 30, 'correct'), result('e', 'correct')]);
  const improved = report([...many('b', 1, 'wrong'), ...many('f', 9, 'correct'), ...many('s', 30, 'correct'), result('e', 'error')]);
  const worse = report([...many('b', 1, 'correct'), ...many('f', 9, 'wrong'), ...many('s', 9, 'wrong'), ...many('s', 30, 'correct').slice(9), result('e', 'correct')]);

  it('--fail-on regression fails on any broken question, never on an error', () => {
    const c = compareReports(base, improved, { files: FILES, resamples: 100 });
    expect(c.counts.errors).toBe(1);
    expect(failures(regressionGates(c, { failOn: 'regression' }))).toEqual(['1 broken question (b0) with --fail-on regression']);
    expect(failures(regressionGates(c, { maxBroken: 1 }))).toEqual([]);
    expect(failures(regressionGates(c, { maxBroken: 0 }))).toEqual(['1 broken questions > --max-broken 0 (over by 1): b0']);
  });

  it('--fail-on significant-regression needs p < alpha and accuracy down', () => {
    const up = compareReports(base, improved, { files: FILES, resamples: 100 });
    expect(failures(regressionGates(up, { failOn: 'significant-regression' }))).toEqual([]);
    const down = compareReports(base, worse, { files: FILES, resamples: 100 });
    expect(down.paired.mcnemar).toMatchObject({ b: 9, c: 0 });
    // p = 2 / 512 = 0.00390625
    expect(failures(regressionGates(down, { failOn: 'significant-regression' }))).toEqual([
      'paired top1Accuracy -0.220 on 41 questions (9 broken, 0 fixed), McNemar p 0.00391 < --alpha 0.05 (significant regression)',
    ]);
    expect(failures(regressionGates(down, { failOn: 'significant-regression', alpha: 0.001 }))).toEqual([]);
  });

  it('never passes on nothing compared: no question in common, or line-numbered questions that moved', () => {
    const renamed = report([...many('x', 41, 'wrong')]);
    const none = compareReports(base, renamed, { files: FILES, resamples: 50 });
    expect(none.counts.common).toBe(0);
    expect(failures(regressionGates(none, { failOn: 'regression', maxBroken: 5 }))).toEqual([
      '--fail-on regression cannot be judged: no question is in both runs with the same id and text (41 added, 41 removed, 0 changed): nothing was compared',
      '--max-broken cannot be judged: no question is in both runs with the same id and text (41 added, 41 removed, 0 changed): nothing was compared',
    ]);
    const byLine = report([...many('b', 1, 'correct'), ...many('f', 9, 'wrong'), ...many('s', 30, 'correct')]);
    byLine.run.dataset = { ...byLine.run.dataset, ids: 'line' };
    const moved = compareReports(base, byLine, { files: FILES, resamples: 50 });
    expect(failures(regressionGates(moved, { failOn: 'significant-regression' }))).toEqual([
      '--fail-on significant-regression cannot be judged: the questions are named by their line (a dataset without an id column) and rows moved (0 added, 1 removed, 0 changed): the same id no longer names the same question; give each row a stable id',
    ]);
    const unmoved = compareReports(byLine, byLine, { files: FILES, resamples: 50 });
    expect(failures(regressionGates(unmoved, { failOn: 'regression' }))).toEqual([]);
  });
});

describe('gate flag validation', () => {
  // the flags as yargs reads them (numberOption: what was typed is checked and named)
  const parse = (...args: string[]) =>
    gateOptions(yargs(args))
      .exitProcess(false)
      .fail((message, error) => {
        throw error ?? new Error(message);
      })
      .parseSync();

  it('accepts rates in 0..1 and refuses anything else, naming the flag', () => {
    expect(parse('--min-accuracy', '0', '--max-error-rate', '1', '--alpha', '0.05', '--max-broken', '0')).toMatchObject({ minAccuracy: 0, maxErrorRate: 1, alpha: 0.05, maxBroken: 0 });
    expect(() => parse('--min-accuracy', '1.5')).toThrow('--min-accuracy must be a share between 0 and 1, got 1.5');
    expect(() => parse('--max-fallback-missed-rate', '-0.1')).toThrow('--max-fallback-missed-rate must be a share between 0 and 1');
    expect(() => parse('--max-error-rate', 'NaN')).toThrow('--max-error-rate must be a share between 0 and 1, got "NaN"');
    expect(() => parse('--alpha', '1')).toThrow('--alpha must be between 0 and 1 (exclusive), got 1');
    expect(() => parse('--max-broken', '1.5')).toThrow('--max-broken must be a whole number >= 0, got 1.5');
    expect(() => parse('--resamples', '0')).toThrow('--resamples must be a whole number >= 1');
    expect(() => parse('--max-broken')).toThrow('Not enough arguments following: max-broken');
  });
});
