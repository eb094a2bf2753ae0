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

describe('the quarantine in the count gates', () => {
  const quarantine = (...ids: string[]) => ({ file: 'q.txt', ids: new Map(ids.map((id, i) => [id, i + 1])) });
  const base = report(many('s', 30, 'correct'));
  const worse = report([...many('s', 9, 'wrong'), ...many('s', 30, 'correct').slice(9)]);

  it('a quarantined question that broke is not counted by --fail-on regression or --max-broken, and is named apart', () => {
    const c = compareReports(base, worse, { files: FILES, resamples: 50, quarantine: quarantine('s0', 's1', 'gone') });
    expect(c.counts).toMatchObject({ broken: 7, quarantined: 2 });
    expect(c.questions.quarantined.map((q) => q.id)).toEqual(['s0', 's1']);
    expect(c.paired.mcnemar.b).toBe(9); // the statistics describe the change: every question that broke
    expect(c.quarantine).toEqual({ file: 'q.txt', ids: 3, unknown: ['gone'], unknownCount: 1 });
    expect(failures(regressionGates(c, { failOn: 'regression', maxBroken: 7 }))).toEqual([
      '7 broken questions (s2, s3, s4, s5, s6, s7, s8) with --fail-on regression; besides, 2 broke, but quarantined (s0, s1): not counted',
    ]);
    const all = compareReports(base, worse, { files: FILES, resamples: 50, quarantine: quarantine(...many('s', 9, 'wrong').map((r) => r.id)) });
    const results = regressionGates(all, { failOn: 'regression', maxBroken: 0 });
    expect(results.map((r) => [r.passed, r.message])).toEqual([
      [true, 'no broken question (9 broke, but quarantined: s0, s1, s2, s3, s4, s5, s6, s7, s8)'],
      [true, '0 broken <= --max-broken 0 (9 broke, but quarantined: s0, s1, s2, s3, s4, s5, s6, s7, s8)'],
    ]);
  });
});

describe('--fail-on significant-regression states its power', () => {
  // 113 paired questions, 4 broken, none fixed: the pull request
  const base = report(many('q', 113, 'correct'));
  const head = report([...many('q', 4, 'wrong'), ...many('q', 113, 'correct').slice(4)]);

  it('passing 4 broken of 113, it says 6 are needed at 0.05, points to --fail-on regression, and names the disagreeing interval', () => {
    const c = compareReports(base, head, { files: FILES });
    expect(c.paired.mcnemar).toEqual({ b: 4, c: 0, p: 0.125 });
    const [gate] = regressionGates(c, { failOn: 'significant-regression' });
    expect(gate!.passed).toBe(true);
    expect(gate!.message).toContain(
      'paired top1Accuracy -0.035 on 113 questions (4 broken, 0 fixed), McNemar p 0.125 >= --alpha 0.05: not a significant regression; ' +
        'with 0 fixed, it takes at least 6 broken questions to be significant at --alpha 0.05, so this gate does not fail on fewer; ' +
        'to fail on any broken question, use --fail-on regression (or --max-broken N)',
    );
    // the bootstrap interval lies wholly below 0 here (as in the issue): the text says the two disagree
    expect(c.paired.top1Accuracy.high).toBeLessThan(0);
    expect(gate!.message).toContain("McNemar and the bootstrap interval disagree: the paired bootstrap 95% interval of the accuracy change (−7.1 pts … −0.9 pts) lies wholly below 0, yet McNemar's p is not below --alpha 0.05");
    // at alpha 0.01 it takes 8
    expect(regressionGates(c, { failOn: 'significant-regression', alpha: 0.01 })[0]!.message).toContain('with 0 fixed, it takes at least 8 broken questions to be significant at --alpha 0.01');
  });

  it('on a set too small for any number of broken questions to be significant, it says the gate cannot fail', () => {
    const c = compareReports(report(many('q', 5, 'correct')), report(many('q', 5, 'wrong')), { files: FILES, resamples: 100 });
    const [gate] = regressionGates(c, { failOn: 'significant-regression' });
    expect(gate).toMatchObject({ passed: true, value: 0.0625 });
    expect(gate!.message).toContain('with 5 paired questions and 0 fixed, no number of broken questions can be significant at --alpha 0.05 (it takes 6): this gate cannot fail here');
  });

  it('says so when McNemar is significant but the bootstrap interval holds 0', () => {
    // 5 broken, 1 fixed: p = 2 * 7 / 64 = 0.21875 < 0.25, while the 95% interval reaches 0
    const head2 = report([...many('q', 5, 'wrong'), ...many('q', 113, 'correct').slice(5)]);
    const base2 = report([...many('q', 112, 'correct'), result('q112', 'wrong')]);
    const c = compareReports(base2, head2, { files: FILES });
    expect(c.paired.mcnemar).toMatchObject({ b: 5, c: 1 });
    expect(c.paired.top1Accuracy.high).toBeGreaterThanOrEqual(0);
    const [gate] = regressionGates(c, { failOn: 'significant-regression', alpha: 0.25 });
    expect(gate!.passed).toBe(false);
    expect(gate!.message).toContain('McNemar p 0.219 < --alpha 0.25 (significant regression). McNemar and the bootstrap interval disagree: McNemar\'s p is below --alpha 0.25, yet the paired bootstrap 95% interval of the accuracy change');
    expect(gate!.message).toContain('holds 0 (at another level than --alpha 0.25)');
  });

  it('says the power when accuracy went up too', () => {
    const c = compareReports(head, base, { files: FILES, resamples: 100 });
    const [gate] = regressionGates(c, { failOn: 'significant-regression' });
    expect(gate!.message).toContain('(0 broken, 4 fixed), McNemar p 0.125: accuracy did not go down, not a regression; with 4 fixed, it takes at least 13 broken questions');
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
    expect(() => parse('--resamples', '0')).toThrow('--resamples must be a whole number from 1 to 100000');
    expect(() => parse('--max-broken')).toThrow('Not enough arguments following: max-broken');
  });
});
