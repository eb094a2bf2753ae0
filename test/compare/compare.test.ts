import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ChangeList } from '../../src/compare/changes.js';
import { questionEdits } from '../../src/compare/classify.js';
import { compareData, compareReports } from '../../src/compare/compare.js';
import { DriftCounter } from '../../src/compare/drift.js';
import { openPair } from '../../src/compare/load.js';
import { ChangeLineSchema, ComparisonSchema } from '../../src/compare/schema.js';
import { writeComparison } from '../../src/compare/write.js';
import { ConfigError, ReportWriteError } from '../../src/errors.js';
import type { Report } from '../../src/model/report.js';
import { arraySource, fromReport, type ReportData } from '../../src/model/source.js';
import { writeReports } from '../../src/report/write.js';
import { computeMetrics } from '../../src/score/metrics/index.js';
import { summarize } from '../../src/score/summary.js';
import { RecordSource } from '../../src/util/records.js';
import { tempDir } from '../helpers/tmp.js';
import { reportEdgeCases } from '../helpers/edge-cases.js';
import { makeReport } from '../helpers/report-fixture.js';
import { answer, FILES, many, report, result } from './fixtures.js';

const ids = (xs: { id: string }[]) => xs.map((x) => x.id);
const FAST = { files: FILES, resamples: 200 };

describe('compareReports: classification by id', () => {
  // base order differs from head order on purpose: matching is by id
  const base = report([
    result('broken', 'correct', 1),
    result('broken-fb', 'fallback_ok', null),
    result('fixed', 'wrong', 2),
    result('top1-changed', 'correct', 1),
    result('drift', 'correct', 1, 90),
    result('wrong-drift', 'wrong', 3, 50),
    result('same', 'correct', 1, 90),
    result('err-head', 'correct', 1),
    result('err-base', 'error'),
    result('removed', 'correct', 1),
    result('unlabeled', 'unlabeled', 4, 10),
  ]);
  const head = report([
    result('added', 'wrong', 2),
    result('same', 'correct', 1, 90 + 1e-9),
    result('unlabeled', 'unlabeled', 5, 10),
    result('err-base', 'correct', 1),
    result('err-head', 'error'),
    result('wrong-drift', 'wrong', 3, 40),
    result('drift', 'correct', 1, 80),
    result('top1-changed', 'correct', 7),
    result('fixed', 'correct', 1),
    result('broken-fb', 'fallback_missed', 9),
    result('broken', 'abstained', 2),
  ]);
  const c = compareReports(base, head, FAST);

  it('puts each question in exactly its class', () => {
    expect(ids(c.questions.broken)).toEqual(['broken', 'broken-fb']);
    expect(ids(c.questions.fixed)).toEqual(['fixed']);
    // a different top-1 with the same correctness: correct on both sides, on neither, or unlabeled
    expect(ids(c.questions.top1Changed)).toEqual(['top1-changed', 'unlabeled']);
    expect(ids(c.questions.drift)).toEqual(['drift', 'wrong-drift']);
    expect(ids(c.questions.added)).toEqual(['added']);
    expect(ids(c.questions.removed)).toEqual(['removed']);
    expect(c.questions.errors.map((e) => [e.id, e.side])).toEqual([
      ['err-head', 'head'],
      ['err-base', 'base'],
    ]);
    expect(c.questions.changed).toEqual([]);
    expect(c.counts).toEqual({ common: 10, added: 1, removed: 1, changed: 0, paired: 7, broken: 2, quarantined: 0, fixed: 1, top1Changed: 2, drift: 2, errors: 2 });
    expect(ComparisonSchema.parse(c)).toEqual(c);
  });

  it('lists drift with its delta and both top-1 answers', () => {
    const drift = c.questions.drift[0]!;
    expect(drift.scoreDelta).toBe(-10);
    expect(drift.base.top1).toEqual({ answer: 'answer 1', sequence_number: 1, label: 'label-1', category: null, score: 90 });
    const broken = c.questions.broken[0]!;
    expect([broken.base.top1?.answer, broken.head.top1?.answer]).toEqual(['answer 1', 'answer 2']);
    expect([broken.base.outcome, broken.head.outcome]).toEqual(['correct', 'abstained']);
  });

  it('runs McNemar on the paired, error-free, labeled questions only', () => {
    // paired: broken, broken-fb, fixed, top1-changed, drift, wrong-drift, same (errors, unlabeled, added, removed out)
    expect(c.paired.n).toBe(7);
    expect(c.paired.mcnemar).toEqual({ b: 2, c: 1, p: 1 });
    expect(c.paired.top1Accuracy.base).toBeCloseTo(5 / 7, 12);
    expect(c.paired.top1Accuracy.head).toBeCloseTo(4 / 7, 12);
    expect(c.paired.top1Accuracy.delta).toBeCloseTo(-1 / 7, 12);
  });

  it('reports metric deltas over the common questions when the question sets differ', () => {
    // one question added, one removed: 10 common, one error on each side
    expect(c.metrics.errorRate).toEqual({ base: 1 / 10, head: 1 / 10, delta: 0 });
    // base: 1 fallback question, ok; head: 1, missed
    expect(c.metrics.fallbackMissedRate).toEqual({ base: 0, head: 1, delta: 1 });
    expect(c.metrics.latencyP50.delta).toBe(0);
  });

  it('has no MRR when the reports carry no rank, and says why', () => {
    expect(c.paired.mrr).toBeNull();
    expect(c.paired.mrrNote).toBe('MRR not compared: neither report has a per-question rank (written before answer-eval recorded it)');
  });
});

describe('compareReports: datasets that changed between runs', () => {
  // base: a0..a5 correct, x correct, fb fallback_ok; head: the same ids, a0 broken, a1 fixed?, plus edits and additions
  const base = report([
    ...many('a', 6, 'correct'),
    result('edited-text', 'correct'),
    result('edited-expect', 'correct'),
    result('edited-lang', 'correct'),
    result('reordered-alternatives', 'correct', 1, 90, { expected: { expect: 'answer', label: ['b', 'a'] } }),
    result('gone', 'correct'),
  ]);
  const head = report([
    result('new1', 'wrong'),
    ...many('a', 5, 'correct'),
    result('a5', 'wrong', 3),
    result('edited-text', 'wrong', 2, 90, { question: 'question edited-text, reworded' }),
    result('edited-expect', 'wrong', 1, 90, { expected: { expect: 'answer', sequence: ['2'] } }),
    result('edited-lang', 'correct', 1, 90, { language: 'it' }),
    result('reordered-alternatives', 'correct', 1, 90, { expected: { expect: 'answer', label: ['a', 'b'] } }),
    result('new2', 'correct'),
    result('new3', 'error'),
  ]);
  const c = compareReports(base, head, FAST);

  it('matches by id: common, added, removed, and changed (question, language or expectation edited) apart', () => {
    expect(c.counts).toMatchObject({ common: 7, added: 3, removed: 1, changed: 3, paired: 7, broken: 1, fixed: 0 });
    expect(ids(c.questions.added)).toEqual(['new1', 'new2', 'new3']);
    expect(ids(c.questions.removed)).toEqual(['gone']);
    expect(c.questions.changed.map((q) => [q.id, q.edits])).toEqual([
      ['edited-text', ['question']],
      ['edited-expect', ['expectation']],
      ['edited-lang', ['language']],
    ]);
    const text = c.questions.changed[0]!;
    expect([text.baseQuestion, text.question]).toEqual(['question edited-text', 'question edited-text, reworded']);
    expect(c.questions.changed[1]!.expected).toEqual({ base: 'sequence 1', head: 'sequence 2' });
    expect(ComparisonSchema.parse(c)).toEqual(c);
  });

  it('keeps changed, added and removed questions out of the classes, the statistics and the metric deltas', () => {
    // edited-text and edited-expect went from correct to wrong: edited, so not broken; only a5 broke
    expect(ids(c.questions.broken)).toEqual(['a5']);
    expect(c.paired.mcnemar).toEqual({ b: 1, c: 0, p: 1 });
    expect(c.paired.n).toBe(7);
    // 7 common questions: all correct in base, 6 of 7 in head (new1 wrong, new3 error left out)
    expect(c.metrics.top1Accuracy).toEqual({ base: 1, head: 6 / 7, delta: 6 / 7 - 1 });
    expect(c.metrics.errorRate).toEqual({ base: 0, head: 0, delta: 0 });
  });

  it('takes the metric deltas from the summaries when both reports hold the same questions', () => {
    const same = compareReports(base, base, FAST);
    expect(same.counts).toMatchObject({ common: 11, added: 0, removed: 0, changed: 0 });
    expect(same.metrics.top1Accuracy).toEqual({ base: base.summary.top1Accuracy, head: base.summary.top1Accuracy, delta: 0 });
  });

  it('compares reports of different datasets (sha256) without --force', () => {
    expect(compareReports(report([result('q', 'correct')]), report([result('q', 'correct')], { sha256: 'bbb' }), FAST).forced).toEqual([]);
  });
});

describe('questionEdits', () => {
  it('names the edited parts; the order of alternatives and absent fields do not count', () => {
    const r = result('q', 'correct', 1, 90, { expected: { expect: 'answer', label: ['x', 'y'], category: undefined } });
    expect(questionEdits(r, { ...r, expected: { expect: 'answer', label: ['y', 'x'] } })).toEqual([]);
    expect(questionEdits(r, { ...r, expected: { expect: 'answer', label: ['x'] } })).toEqual(['expectation']);
    expect(questionEdits(r, { ...r, expected: { expect: 'fallback' } })).toEqual(['expectation']);
    expect(questionEdits(r, { ...r, question: 'other', language: 'de' })).toEqual(['question', 'language']);
    // outcome, answers and tags are what a run measured or how it slices: not an edit
    expect(questionEdits(r, { ...r, outcome: 'wrong', tags: ['t'], answers: [] })).toEqual([]);
  });
});

describe('compareReports: statistics', () => {
  it('computes the McNemar p for 1 broken and 9 fixed, and a reproducible bootstrap interval around the delta', () => {
    const base = report([...many('b', 1, 'correct'), ...many('f', 9, 'wrong'), ...many('s', 30, 'correct')]);
    const head = report([...many('b', 1, 'wrong'), ...many('f', 9, 'correct'), ...many('s', 30, 'correct')]);
    const c = compareReports(base, head, FAST);
    expect(c.paired.mcnemar.b).toBe(1);
    expect(c.paired.mcnemar.c).toBe(9);
    expect(c.paired.mcnemar.p).toBeCloseTo(0.021484375, 15);
    const acc = c.paired.top1Accuracy;
    expect(acc.delta).toBeCloseTo(0.2, 12);
    expect(acc.low!).toBeLessThanOrEqual(acc.delta!);
    expect(acc.high!).toBeGreaterThanOrEqual(acc.delta!);
    expect(acc.low!).toBeGreaterThan(0);
    expect(compareReports(base, head, FAST).paired).toEqual(c.paired);
    expect(compareReports(base, head, { ...FAST, seed: 99 }).paired.top1Accuracy).not.toEqual(acc);
  });

  it('computes MRR deltas from per-question ranks', () => {
    const withRank = (id: string, rank: number | null) => result(id, rank === 1 ? 'correct' : 'wrong', 1, 90, { rank });
    const base = report([withRank('a', 1), withRank('b', 2), withRank('c', null)]);
    const head = report([withRank('a', 1), withRank('b', 1), withRank('c', 4)]);
    const c = compareReports(base, head, FAST);
    expect(c.paired.mrrNote).toBeNull();
    expect(c.paired.mrr!.base).toBeCloseTo(1.5 / 3, 12);
    expect(c.paired.mrr!.head).toBeCloseTo(2.25 / 3, 12);
    expect(c.paired.mrr!.delta).toBeCloseTo(0.75 / 3, 12);
  });

  it('tests each tag and category, with Holm across the slices of a breakdown', () => {
    const tagged = (prefix: string, n: number, outcome: 'correct' | 'wrong', tags: string[], category: string) =>
      many(prefix, n, outcome, { tags, answers: [answer(1, 90, { category }), answer(2, 10)], rank: outcome === 'correct' ? 1 : null });
    // billing: 9 broken, 1 fixed; weather: 1 broken, 1 fixed
    const base = report([...tagged('x', 9, 'correct', ['billing'], 'money'), ...tagged('y', 1, 'wrong', ['billing'], 'money'), ...tagged('w', 1, 'correct', ['weather'], 'sky'), ...tagged('v', 1, 'wrong', ['weather'], 'sky')]);
    const head = report([...tagged('x', 9, 'wrong', ['billing'], 'money'), ...tagged('y', 1, 'correct', ['billing'], 'money'), ...tagged('w', 1, 'wrong', ['weather'], 'sky'), ...tagged('v', 1, 'correct', ['weather'], 'sky')]);
    const c = compareReports(base, head, FAST);
    const billing = c.slices.tag.find((s) => s.key === 'billing')!;
    const weather = c.slices.tag.find((s) => s.key === 'weather')!;
    expect(billing.mcnemar).toMatchObject({ b: 9, c: 1 });
    expect(billing.mcnemar.p).toBeCloseTo(0.021484375, 15);
    // two slices: smallest p times 2; the other stays 1
    expect(billing.pHolm).toBeCloseTo(0.04296875, 15);
    expect(weather.pHolm).toBe(1);
    // rank 1 when correct, none otherwise: the MRR delta equals the accuracy delta here
    expect(billing.mrr!.delta).toBeCloseTo(-0.8, 12);
    expect(billing.top1Accuracy.delta).toBeCloseTo(-0.8, 12);
    expect(weather.mrr!.delta).toBe(0);
    // category: the category of the matching answer (base rank, else head rank)
    expect(c.slices.category.map((s) => [s.key, s.n])).toEqual([
      ['money', 10],
      ['sky', 2],
    ]);
  });
});

describe('compareReports: refusal', () => {
  const a = report([result('q', 'correct')]);

  it('refuses another agent or schema major (not another dataset), naming both files and the difference', () => {
    const other = report([result('q', 'correct')], { sha256: 'bbb', agent: 'other', schemaVersion: '2.0' });
    let error: unknown;
    try {
      compareReports(a, other, FAST);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).exitCode).toBe(2);
    expect((error as ConfigError).message).toBe(
      [
        'cannot compare base.json with head.json:',
        '  - schemaVersion major differs: "1.0" in base.json, "2.0" in head.json',
        '  - agent differs: "demo" in base.json, "other" in head.json',
        'pass --force to compare them anyway',
      ].join('\n'),
    );
  });

  it('accepts a minor schema difference, and --force overrides and records the differences', () => {
    expect(compareReports(a, report([result('q', 'correct')], { schemaVersion: '1.3' }), FAST).forced).toEqual([]);
    const c = compareReports(a, report([result('q', 'correct')], { agent: 'other' }), { ...FAST, force: true });
    expect(c.forced).toEqual(['agent differs: "demo" in base.json, "other" in head.json']);
  });
});

describe('compareReports: definitions shared with the report', () => {
  it("takes a question's category from its matching answer in score order, also when the service sent the list unordered", () => {
    // ascending scores: answers[0] is last by score; the matching answer (rank 1) is answers[1]
    const unordered = (id: string, outcome: 'correct' | 'wrong') =>
      result(id, outcome, 1, 90, {
        answers: [answer(2, 10, { category: 'wrong-category' }), answer(1, 90, { category: 'payments' })],
        top1Index: 1,
        unordered: true,
        rank: 1,
      });
    const c = compareReports(report([unordered('a', 'correct')]), report([unordered('a', 'wrong')]), FAST);
    expect(c.slices.category.map((s) => s.key)).toEqual(['payments']);
  });

  it("gives a report compared with itself the report's own MRR (rows expecting any answer are left out of both)", () => {
    const r = makeReport(300);
    const results = [...r.results, ...reportEdgeCases()];
    const withAny = { ...r, results, summary: summarize(results) };
    const own = computeMetrics(arraySource(withAny.results)).rank.mrr!;
    const c = compareReports(withAny, withAny, FAST);
    expect(c.paired.mrr!.base).toBeCloseTo(own, 12);
    expect(c.paired.mrr!.head).toBeCloseTo(own, 12);
    expect(c.paired.mrr!.n).toBe(computeMetrics(arraySource(withAny.results)).rank.questions);
  });
});

describe('compareReports: categories by the report rule', () => {
  // entry 7 is "travel": base answers it, head never returns it
  const travel = (id: string, outcome: 'correct' | 'wrong', side: 'base' | 'head') =>
    result(id, outcome, 1, 90, {
      expected: { expect: 'answer', sequence: ['7'] },
      answers: side === 'base' && outcome === 'correct' ? [answer(7, 90, { category: 'travel' }), answer(8, 40, { category: 'other' })] : [answer(8, 60, { category: 'other' }), answer(9, 30, { category: 'other' })],
      rank: side === 'base' && outcome === 'correct' ? 1 : null,
    });
  const base = report([travel('t1', 'correct', 'base'), travel('t2', 'correct', 'base'), travel('t3', 'correct', 'base'), travel('t4', 'wrong', 'base')]);
  const head = report([travel('t1', 'wrong', 'head'), travel('t2', 'wrong', 'head'), travel('t3', 'wrong', 'head'), travel('t4', 'wrong', 'head')]);

  it('keeps the questions of an entry the head never returns in its category, also one neither run answered', () => {
    const c = compareReports(base, head, FAST);
    // t4 was wrong in both runs: no matching answer anywhere, but the runs show entry 7's category
    expect(c.slices.category.map((s) => [s.key, s.n, s.mcnemar.b])).toEqual([['travel', 4, 3]]);
    expect(c.questions.broken.map((q) => [q.id, q.category])).toEqual([
      ['t1', 'travel'],
      ['t2', 'travel'],
      ['t3', 'travel'],
    ]);
  });

  it("takes an entry's category from either report's metrics.entries (what a --kb told), when no answer shows it", () => {
    const refund = (id: string, outcome: 'wrong') => result(id, outcome, 1, 90, { expected: { expect: 'answer', label: ['refund'] }, answers: [answer(3, 50)], rank: null });
    const kbEntry = { key: 'refund', sequence: 12, label: 'refund', category: 'billing', text: 'Refunds take 5 days.', expected: 1, correct: 0, refused: 0, answered: 0, answeredCorrectly: 0, recall: 0, precision: null, f1: null, losesTo: [], takesFrom: [] };
    const b = { ...report([refund('r1', 'wrong')]), metrics: { ...computeMetrics(arraySource([refund('r1', 'wrong')])), entries: [kbEntry] } };
    const c = compareReports(b, report([refund('r1', 'wrong')]), FAST);
    expect(c.slices.category.map((s) => s.key)).toEqual(['billing']);
  });
});

describe('compareReports: lists, changes and drift groups', () => {
  const base = report([...many('b', 5, 'correct'), ...many('d', 4, 'correct'), result('gone', 'correct')]);
  const head = report([...many('b', 5, 'wrong', { answers: [answer(2, 80), answer(1, 40)], rank: null }), ...many('d', 3, 'correct').map((r, i) => ({ ...r, answers: [answer(1, 90 - i - 1), answer(101, 45)] })), result('d3', 'correct', 1, 95), result('new', 'wrong')]);

  it('keeps the first listLimit questions of each class in compare.json and gives the sink every one, in order, with its class', () => {
    const changes = new ChangeList();
    const c = compareReports(base, head, { ...FAST, listLimit: 2 }, changes);
    expect(c.options.listLimit).toBe(2);
    expect(c.counts).toMatchObject({ broken: 5, drift: 4, added: 1, removed: 1 });
    expect(ids(c.questions.broken)).toEqual(['b0', 'b1']);
    expect(ids(c.questions.drift)).toEqual(['d0', 'd1']);
    expect(changes.lines.map((l) => `${l.class}:${l.id}`)).toEqual(['broken:b0', 'broken:b1', 'broken:b2', 'broken:b3', 'broken:b4', 'drift:d0', 'drift:d1', 'drift:d2', 'drift:d3', 'removed:gone', 'added:new']);
    for (const line of changes) expect(ChangeLineSchema.parse(line)).toEqual(line);
    expect(ComparisonSchema.parse(c)).toEqual(c);
  });

  it('groups the score drift by top-1 entry and by category, with its distribution', () => {
    const c = compareReports(base, head, FAST);
    // d0..d2 moved by -1, -2, -3; d3 by +5: all on entry 1 ("label-1"), no category
    expect(c.drift.byEntry).toEqual([{ key: 'label-1', text: 'answer 1', count: 4, up: 1, down: 3, mean: -0.25, min: -3, p10: -2.7, p50: -1.5, p90: 3.2, max: 5 }].map((g) => ({ ...g, p10: expect.closeTo(g.p10, 12), p90: expect.closeTo(g.p90, 12) })));
    expect(c.drift.byCategory.map((g) => [g.key, g.count])).toEqual([['(category unknown)', 4]]);
    expect(c.drift.histogram.counts.reduce((a, b) => a + b, 0)).toBe(4);
  });
});

describe('compareData: reports read from files, one result at a time', () => {
  const dir = tempDir();
  const base = makeReport(300, { seed: 7 });
  const shuffled = (r: Report): Report => ({ ...r, results: [...r.results].reverse() });
  const head = (() => {
    const r = makeReport(300, { seed: 8 });
    // the same questions as base (ids, text, expectation), other outcomes and answers; a few dropped, one added
    const results = r.results.map((x, i) => ({ ...x, id: base.results[i]!.id, question: base.results[i]!.question, language: base.results[i]!.language, expected: base.results[i]!.expected })).filter((_, i) => i % 50 !== 3);
    const all = [...results, { ...base.results[0]!, id: 'extra' }];
    return { ...r, results: all, summary: summarize(all) };
  })();

  it('gives what compareReports gives, whether HEAD is in the same order, in another order, or a large source without a file', async () => {
    const files = { base: join(dir, 'base'), head: join(dir, 'head'), reversed: join(dir, 'reversed') };
    await writeReports(fromReport(base), files.base, ['json']);
    await writeReports(fromReport(head), files.head, ['json']);
    await writeReports(fromReport(shuffled(head)), files.reversed, ['json']);
    const opened = await openPair(join(files.base, 'report.json'), join(files.head, 'report.json'), false);
    expect(opened.head.results).toBeInstanceOf(RecordSource);
    const fromFiles = new ChangeList();
    const c = compareData(opened.base, opened.head, FAST, fromFiles);
    const inMemory = new ChangeList();
    expect(c).toEqual(compareReports(base, head, FAST, inMemory));
    expect(fromFiles.lines).toEqual(inMemory.lines);
    expect(c.counts).toMatchObject({ removed: 6, added: 1 });

    const reversed = await openPair(join(files.base, 'report.json'), join(files.reversed, 'report.json'), false);
    // HEAD read by slot in another order: the same comparison, in BASE's order
    expect(compareData(reversed.base, reversed.head, FAST)).toEqual(c);
  });

  it('spills a large source without a file (a journal read through a wrapper) to a temporary file and reads it by slot', () => {
    const n = 12_000;
    const big = (outcome: 'correct' | 'wrong'): ReportData => {
      const results = Array.from({ length: n }, (_, i) => result(`q${i}`, i % 7 === 0 ? outcome : 'correct'));
      return { head: report(results), results: { count: n, *[Symbol.iterator]() { for (const r of results) yield { ...r }; } } };
    };
    const c = compareData(big('correct'), big('wrong'), FAST);
    expect(c.counts).toMatchObject({ common: n, broken: Math.ceil(n / 7), added: 0, removed: 0 });
  });
});

describe('DriftCounter', () => {
  it('groups past its limit together, across chunks of storage', () => {
    const drift = new DriftCounter(2);
    const n = 70_000; // more than two chunks
    for (let i = 0; i < n; i++) drift.add(`e${i % 4}`, `text ${i % 4}`, 'c', i % 2 === 0 ? 1 : -2);
    const r = drift.result();
    expect(r.byEntry.map((g) => [g.key, g.text, g.count, g.up, g.down])).toEqual([
      ['(other groups)', null, n / 2, n / 4, n / 4],
      ['e0', 'text 0', n / 4, n / 4, 0],
      ['e1', 'text 1', n / 4, 0, n / 4],
    ]);
    expect(r.byCategory.map((g) => [g.key, g.count, g.mean, g.min, g.p50, g.max])).toEqual([['c', n, -0.5, -2, -0.5, 1]]);
    expect(r.histogram.counts.reduce((a, b) => a + b, 0)).toBe(n);
  });
});

describe('writeComparison', () => {
  it('a file the file system refuses is named in a ReportWriteError (exit 3); the others are written', async () => {
    const c = compareReports(report([result('a', 'correct'), result('b', 'wrong')]), report([result('a', 'wrong'), result('b', 'wrong')]), FAST);
    const out = join(tempDir('answer-eval-compare-write-'), 'out');
    mkdirSync(join(out, 'compare.html', 'held'), { recursive: true }); // a directory that is not empty where compare.html goes: the rename fails
    const error = await writeComparison(c, out).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ReportWriteError);
    expect((error as ReportWriteError).exitCode).toBe(3);
    expect((error as ReportWriteError).failed.map((f) => f.path)).toEqual([join(out, 'compare.html')]);
    expect((error as ReportWriteError).written).toEqual(['compare.json', 'compare.md', 'changes.jsonl'].map((f) => join(out, f)));
  });
});

