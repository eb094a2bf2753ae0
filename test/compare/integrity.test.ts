import { describe, expect, it } from 'vitest';
import { compareReports } from '../../src/compare/compare.js';
import { ConfigError } from '../../src/errors.js';
import type { QuestionResult, Report } from '../../src/model/report.js';
import { FILES, many, report, result } from './fixtures.js';

const FAST = { files: FILES, resamples: 50 };
const refused = (base: Report, head: Report): string => {
  try {
    compareReports(base, head, FAST);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('compared');
};

/** A report whose results are `results` but whose head was written for `as` (its summary and dataset): results added or removed by hand. */
const edited = (as: QuestionResult[], results: QuestionResult[]): Report => ({ ...report(as), results });

describe('a question id twice in one report', () => {
  const good = result('q2', 'correct');
  const bad = result('q2', 'wrong', 2);
  const base = report([result('q1', 'correct'), good, result('q3', 'correct')]);

  it('is refused in HEAD whichever copy comes first, naming the file, the id and both results', () => {
    for (const [first, second] of [[good, bad], [bad, good]] as const) {
      const head = report([result('q1', 'correct'), first, result('q3', 'correct'), second]);
      expect(refused(base, head)).toBe(
        'head.json: question id "q2" has more than one result, results[1] and results[3]: a report holds one result a question (a --repeat run keeps its other askings inside it), ' +
          'so its results were concatenated or edited, and compare cannot tell which one the run measured; compare the report.json the run wrote',
      );
    }
  });

  it('is refused in BASE too, where it would count twice (also when HEAD lacks the question)', () => {
    const twice = report([result('q1', 'correct'), good, result('q3', 'correct'), good]);
    const head = report([result('q1', 'correct'), bad, result('q3', 'correct')]);
    expect(refused(twice, head)).toMatch(/^base\.json: question id "q2" has more than one result, results\[1\] and results\[3\]: /);
    expect(refused(twice, report([result('q1', 'correct')]))).toMatch(/^base\.json: question id "q2" has more than one result/);
  });

  it('does not mistake many distinct ids for duplicates', () => {
    const n = 20_000;
    const c = compareReports(report(many('q', n, 'correct')), report(many('q', n, 'correct')), FAST);
    expect(c.counts.common).toBe(n);
  });
});

describe('a report whose results do not match its own summary', () => {
  const all = many('q', 6, 'correct');
  it('is refused as damaged (exit 2), on either side, saying how many results it holds and how many its summary counts', () => {
    expect(refused(report(all), edited(all, all.slice(0, 5)))).toBe(
      'head.json: holds 5 results but its summary counts 6 (summary.total): results were removed from it (or added to it) after the run wrote it, ' +
        'so it no longer says which questions the run measured; compare the report.json the run wrote',
    );
    expect(refused(edited(all, all.slice(1)), report(all))).toMatch(/^base\.json: holds 5 results but its summary counts 6 /);
  });
});
