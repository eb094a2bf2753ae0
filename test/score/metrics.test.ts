import { describe, expect, it } from 'vitest';
import { MetricsSchema } from '../../src/model/metrics.js';
import type { QuestionResult } from '../../src/model/report.js';
import { sliceBy } from '../../src/score/metrics/breakdowns.js';
import { EntryIndex } from '../../src/score/metrics/entries.js';
import { confusions } from '../../src/score/metrics/confusions.js';
import { distribution, histogram } from '../../src/score/metrics/distribution.js';
import { arraySource } from '../../src/model/source.js';
import { computeMetrics } from '../../src/score/metrics/index.js';
import { rankMetrics } from '../../src/score/metrics/rank-metrics.js';
import { CURVE_POINTS, thresholdAnalysis } from '../../src/score/metrics/thresholds.js';
import { mulberry32 } from '../../src/util/random.js';
import { wilson } from '../../src/score/metrics/wilson.js';
import { ans, res } from '../helpers/results.js';

const floor = (score = 5) => ans(99, score, { is_dummy_floor_answer: true, label: 'floor' });
const seq = (...s: string[]): QuestionResult['expected'] => ({ expect: 'answer', sequence: s });
const fallback: QuestionResult['expected'] = { expect: 'fallback' };

describe('wilson', () => {
  it('matches the textbook 95% interval', () => {
    const i = wilson(8, 10);
    expect(i.value).toBe(0.8);
    expect(i.low).toBeCloseTo(0.49016, 4);
    expect(i.high).toBeCloseTo(0.94332, 4);
    expect(i).toMatchObject({ successes: 8, n: 10 });
  });
  it('0 of 5 starts at 0; n = 0 is all null', () => {
    expect(wilson(0, 5).low).toBe(0);
    expect(wilson(0, 5).high).toBeCloseTo(0.434482, 5);
    expect(wilson(0, 0)).toEqual({ value: null, low: null, high: null, successes: 0, n: 0 });
  });
});

describe('distribution', () => {
  it('percentiles interpolate linearly (R-7); bins are [a, b) with the last closed', () => {
    const d = distribution([95, 20, 10, 20], [0, 100]);
    expect(d.count).toBe(4);
    expect(d.percentiles.p10).toBeCloseTo(13, 9);
    expect(d.percentiles.p25).toBeCloseTo(17.5, 9);
    expect(d.percentiles.p50).toBeCloseTo(20, 9);
    expect(d.percentiles.p75).toBeCloseTo(38.75, 9);
    expect(d.percentiles.p90).toBeCloseTo(72.5, 9);
    expect(d.histogram.edges).toEqual([0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100]);
    expect(d.histogram.counts).toEqual([0, 1, 2, 0, 0, 0, 0, 0, 0, 1]);
  });
  it('puts the maximum in the last bin and rounds the domain outwards', () => {
    expect(histogram([3, 97])).toEqual({ edges: [0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100], counts: [1, 0, 0, 0, 0, 0, 0, 0, 0, 1] });
  });
  it('one value: one closed bin; no values: nothing', () => {
    expect(histogram([7, 7])).toEqual({ edges: [7, 7], counts: [2] });
    expect(distribution([])).toEqual({ count: 0, percentiles: { p10: null, p25: null, p50: null, p75: null, p90: null }, histogram: { edges: [], counts: [] } });
  });
});

describe('rankMetrics', () => {
  it('hit@k and MRR over rows with expectations and a response (ties handled by rank)', () => {
    const results = [
      res({ outcome: 'correct', expected: seq('1'), rank: 1, margin: 10 }),
      res({ outcome: 'wrong', expected: seq('1'), rank: 3, margin: 0 }),
      res({ outcome: 'abstained', expected: seq('1'), rank: null, margin: null }),
      res({ outcome: 'wrong', expected: seq('1'), rank: 6, margin: 5 }),
      res({ outcome: 'error', expected: seq('1') }),
      res({ outcome: 'unlabeled', margin: 20 }),
      res({ outcome: 'correct', expected: { expect: 'answer' }, margin: 20 }),
    ];
    const m = rankMetrics(results);
    const rr = [1, 1 / 3, 0, 1 / 6];
    const mean = (1 + 1 / 3 + 0 + 1 / 6) / 4;
    expect(m).toMatchObject({ questions: 4, hit1: 0.25, hit3: 0.5, hit5: 0.5, mrr: mean, meanMargin: 5 });
    // mean ± 1.96 s/√n, s the sample standard deviation of the reciprocal ranks
    const s = Math.sqrt(rr.reduce((a, x) => a + (x - mean) ** 2, 0) / 3);
    expect(m.mrrInterval.value).toBe(mean);
    expect(m.mrrInterval.low).toBeCloseTo(Math.max(0, mean - 1.959963984540054 * (s / 2)), 12);
    expect(m.mrrInterval.high).toBeCloseTo(mean + 1.959963984540054 * (s / 2), 12);
  });
  it('is null without ranked questions', () => {
    expect(rankMetrics([res({ outcome: 'unlabeled' })])).toEqual({
      questions: 0, hit1: null, hit3: null, hit5: null, mrr: null, mrrInterval: { value: null, low: null, high: null }, meanMargin: null,
    });
  });
});

describe('thresholdAnalysis', () => {
  const results = [
    res({ outcome: 'correct', expected: seq('1'), answers: [ans(1, 80)] }),
    res({ outcome: 'correct', expected: seq('2'), answers: [ans(2, 40), ans(3, 10)] }),
    res({ outcome: 'wrong', expected: seq('1'), answers: [ans(4, 60)] }),
    res({ outcome: 'abstained', expected: seq('1'), answers: [floor()] }),
    res({ outcome: 'fallback_missed', expected: fallback, answers: [ans(5, 30)] }),
    res({ outcome: 'fallback_ok', expected: fallback, answers: [floor()] }),
    res({ outcome: 'fallback_ok', expected: fallback, answers: [] }),
    res({ outcome: 'unlabeled', answers: [ans(6, 99)] }),
    res({ outcome: 'error', expected: seq('1') }),
  ];
  it('replays every candidate threshold from the lowest score answered, and recommends the best F1 (hand-computed)', () => {
    const t = thresholdAnalysis(results);
    expect(t).toMatchObject({ objective: 'f1', answerable: 4, outOfScope: 3, replayableFrom: 30 });
    const rows = t.curve.map((p) => [p.threshold, p.answeredCorrectly, p.refusedCorrectly, p.coverage, p.objective]);
    const expected = [
      [30, 1 / 2, 2 / 3, 3 / 4, 4 / 7],
      [40, 1 / 2, 1, 3 / 4, 2 / 3],
      [60, 1 / 4, 1, 2 / 4, 0.4],
      [80, 1 / 4, 1, 1 / 4, 0.4],
      [81, 0, 1, 0, 0],
    ];
    expect(rows).toHaveLength(expected.length);
    rows.forEach((row, i) => row.forEach((v, j) => expect(v).toBeCloseTo(expected[i]![j]!, 12)));
    expect(t.recommended?.threshold).toBe(40);
  });
  it('a matching dummy top-1 (a greeting) is answered; the higher threshold wins ties', () => {
    const t = thresholdAnalysis([
      res({ outcome: 'correct', expected: { expect: 'answer', label: ['greeting'] }, answers: [ans(50, 100, { is_dummy_answer: true, label: 'greeting' })] }),
      res({ outcome: 'correct', expected: { expect: 'answer', label: ['pay'] }, answers: [ans(51, 70, { label: 'pay' })] }),
      res({ outcome: 'fallback_ok', expected: fallback, answers: [] }),
    ]);
    expect(t.curve.map((p) => [p.threshold, p.objective])).toEqual([[70, 1], [100, 2 / 3], [101, 0]]);
    expect(t.recommended?.threshold).toBe(70);
  });
  it('a run made with a raised floor is never advised a lower one: ties on the plateau go up to its lowest answered score', () => {
    // the service answered nothing below 60 (its floor): every threshold up to 60 replays the same
    const raised = [
      res({ outcome: 'correct', expected: seq('1'), answers: [ans(1, 75)] }),
      res({ outcome: 'correct', expected: seq('2'), answers: [ans(2, 61)] }),
      res({ outcome: 'abstained', expected: seq('3'), answers: [floor(55)] }),
      res({ outcome: 'fallback_ok', expected: fallback, answers: [floor(20)] }),
      res({ outcome: 'fallback_missed', expected: fallback, answers: [ans(4, 90)] }),
    ];
    const t = thresholdAnalysis(raised);
    expect(t.replayableFrom).toBe(61);
    expect(t.curve[0]!.threshold).toBe(61);
    expect(t.recommended!.threshold).toBeGreaterThanOrEqual(61);
  });
  it('live-accuracy weighs the out-of-scope share of live traffic; keep-accuracy keeps in-scope accuracy within a drop', () => {
    // answered in scope: 80 (right), 60 (wrong), 40 (right); out of scope answered at 30 and 50
    const mixed = [
      res({ outcome: 'correct', expected: seq('1'), answers: [ans(1, 80)] }),
      res({ outcome: 'wrong', expected: seq('1'), answers: [ans(2, 60)] }),
      res({ outcome: 'correct', expected: seq('3'), answers: [ans(3, 40)] }),
      res({ outcome: 'fallback_missed', expected: fallback, answers: [ans(4, 30)] }),
      res({ outcome: 'fallback_missed', expected: fallback, answers: [ans(5, 50)] }),
    ];
    // t=30: AC 2/3, RC 0; t=40: 2/3, 1/2; t=50: 1/3, 1/2; t=60: 1/3, 1; t=80: 1/3, 1; t=81: 0, 1
    const rare = thresholdAnalysis(mixed, { oosShare: 0.1 });
    expect(rare.objective).toBe('live-accuracy');
    expect(rare.objectiveText).toContain('10% of questions out of scope');
    expect(rare.recommended!.threshold).toBe(40); // 0.9·2/3 + 0.1·1/2 = 0.65 beats 0.9·1/3 + 0.1 = 0.4
    expect(thresholdAnalysis(mixed, { oosShare: 0.9 }).recommended!.threshold).toBe(80); // 0.1·1/3 + 0.9 = 0.933, higher on the tie with 60
    const keep = thresholdAnalysis(mixed, { objective: 'keep-accuracy', maxAccuracyDrop: 0.05 });
    expect(keep.recommended!.threshold).toBe(40); // the highest keeping 2/3
    expect(thresholdAnalysis(mixed, { objective: 'keep-accuracy', maxAccuracyDrop: 0.4 }).recommended!.threshold).toBe(80);
  });
  it('a run with more distinct scores than CURVE_POINTS keeps every k-th point, the ends and the recommended one, each exact', () => {
    // every top-1 score distinct (a service scoring with many decimals); out of scope: every fifth, all answered
    const random = mulberry32(11);
    const n = Math.round(CURVE_POINTS * 1.3);
    const scores = Float64Array.from({ length: n }, (_, i) => Math.round(random() * 1e9) / 1e7 + i * 1e-9);
    const oos = Array.from({ length: n }, (_, i) => i % 5 === 0);
    const correct = Array.from(scores, (score, i) => !oos[i] && random() < score / 100);
    const results = Array.from(scores, (score, i) =>
      res({ outcome: oos[i] ? 'fallback_missed' : correct[i] ? 'correct' : 'wrong', expected: oos[i] ? fallback : seq('1'), answers: [ans(1, score)] }));
    // the definition, literally: every distinct score is a candidate, replayed over every question
    const inScope = oos.filter((o) => !o).length;
    const at = (t: number) => {
      let right = 0;
      let refused = 0;
      for (let i = 0; i < n; i++) {
        if (oos[i]) refused += scores[i]! < t ? 1 : 0;
        else right += correct[i] && scores[i]! >= t ? 1 : 0;
      }
      const ac = right / inScope;
      const rc = refused / (n - inScope);
      return { ac, rc, objective: ac + rc === 0 ? 0 : (2 * ac * rc) / (ac + rc) };
    };
    const candidates = [...scores].sort((x, y) => x - y);
    const replayed = candidates.map(at);
    const indexOf = new Map(candidates.map((c, i) => [c, i]));
    for (const options of [{}, { objective: 'keep-accuracy' as const, maxAccuracyDrop: 0.05 }]) {
      const t = thresholdAnalysis(results, options);
      expect(t.curve.length).toBeGreaterThan(CURVE_POINTS / 2);
      expect(t.curve.length).toBeLessThanOrEqual(CURVE_POINTS + 2);
      const thresholds = t.curve.map((p) => p.threshold);
      expect(thresholds.every((x, i) => i === 0 || x > thresholds[i - 1]!)).toBe(true);
      expect(thresholds[0]).toBe(candidates[0]);
      expect(thresholds.at(-1)).toBe(candidates.at(-1)! + 1);
      expect(t.curve).toContain(t.recommended);
      for (const p of t.curve.slice(0, -1)) {
        const want = replayed[indexOf.get(p.threshold)!]!;
        expect([p.answeredCorrectly, p.refusedCorrectly]).toEqual([want.ac, want.rc]);
      }
      // the recommended point is the best over every candidate, not only over the points kept
      const k = options.objective === 'keep-accuracy'
        ? replayed.findLastIndex((r) => r.ac >= replayed[0]!.ac - 0.05 - 1e-12)
        : replayed.reduce((b, r, i) => (r.objective >= replayed[b]!.objective ? i : b), 0);
      expect(t.recommended!.threshold).toBe(candidates[k]);
      // with this seed neither recommended point is one of every other point the curve keeps: it was added
      expect((candidates.length - k) % Math.ceil((candidates.length + 1) / CURVE_POINTS)).not.toBe(0);
    }
  });
  it('no recommendation without out-of-scope questions; no curve without labels', () => {
    expect(thresholdAnalysis([res({ outcome: 'correct', expected: seq('1'), answers: [ans(1, 80)] })]).recommended).toBeNull();
    expect(thresholdAnalysis([res({ outcome: 'unlabeled' })])).toMatchObject({ objective: 'f1', answerable: 0, outOfScope: 0, replayableFrom: null, curve: [], recommended: null });
  });
});

describe('breakdowns', () => {
  it('slices by language and tag with every headline metric', () => {
    const results = [
      res({ outcome: 'correct', language: 'it', tags: ['billing', 'card'], expected: seq('1'), rank: 1 }),
      res({ outcome: 'wrong', language: 'en', tags: ['billing'], expected: seq('1'), rank: 2 }),
      res({ outcome: 'error', language: 'en', tags: [] }),
    ];
    expect(sliceBy(results, (r) => [r.language]).map((s) => [s.key, s.total, s.outcomes.correct, s.top1Accuracy.value, s.errorRate])).toEqual([
      ['en', 2, 0, 0, 0.5],
      ['it', 1, 1, 1, 0],
    ]);
    const tags = sliceBy(results, (r) => r.tags);
    expect(tags.map((s) => [s.key, s.total, s.rank.hit1, s.rank.mrr, s.answerableAccuracy.successes, s.answerableAccuracy.n])).toEqual([
      ['billing', 2, 0.5, 0.75, 1, 2],
      ['card', 1, 1, 1, 1, 1],
    ]);
  });
  it('finds the expected category: the row, its matching answer, the run, else a placeholder', () => {
    const results = [
      res({ outcome: 'correct', expected: { expect: 'answer', category: ['Billing', 'Pay'] }, answers: [ans(1, 9, { category: 'Other' })], rank: null }),
      res({ outcome: 'wrong', expected: seq('2'), answers: [ans(3, 9, { category: 'Shop' }), ans(2, 5, { category: 'Cards' })], rank: 2 }),
      res({ outcome: 'abstained', expected: seq('2'), answers: [] }),
      res({ outcome: 'abstained', expected: { expect: 'answer', label: ['shop-label'] }, answers: [] }),
      res({ outcome: 'abstained', expected: { expect: 'answer', label: ['label-3'] }, answers: [] }),
      res({ outcome: 'fallback_ok', expected: fallback }),
    ];
    const index = new EntryIndex();
    for (const r of results) index.add(r);
    expect(results.map((r) => index.categoryOf(r))).toEqual(['Billing || Pay', 'Cards', 'Cards', '(category unknown)', 'Shop', '(out of scope)']);
    // a knowledge base names the category of an entry the run never returned
    const withKb = new EntryIndex([{ sequence: 40, label: 'shop-label', category: 'Shop', text: 'We sell...' }]);
    for (const r of results) withKb.add(r);
    expect(withKb.categoryOf(results[3]!)).toBe('Shop');
  });
});

describe('confusions', () => {
  it('counts (expected, got) pairs of wrong answers, most frequent first, and out-of-scope misses apart', () => {
    const results = [
      res({ id: 'a', outcome: 'wrong', expected: { expect: 'answer', label: ['refunds'] }, answers: [ans(4, 60)] }),
      res({ id: 'b', outcome: 'wrong', expected: { expect: 'answer', label: ['refunds'] }, answers: [ans(4, 70), ans(5, 1)] }),
      res({ id: 'c', outcome: 'wrong', expected: seq('1', '2'), answers: [ans(4, 60, { label: '' })] }),
      res({ id: 'd', outcome: 'fallback_missed', expected: fallback, answers: [ans(8, 60)] }),
      res({ id: 'e', outcome: 'abstained', expected: seq('1'), answers: [floor()] }),
    ];
    expect(confusions(results)).toEqual({
      confusions: [
        { expected: 'refunds', got: 'label-4', count: 2, examples: ['a', 'b'] },
        { expected: '1 || 2', got: '4', count: 1, examples: ['c'] },
      ],
      outOfScopeMisses: [{ expected: '(fallback)', got: 'label-8', count: 1, examples: ['d'] }],
    });
  });
});

describe('computeMetrics', () => {
  it('gives intervals equal to the summary ratios and a schema-valid object', () => {
    const results = [
      res({ outcome: 'correct', expected: seq('1'), answers: [ans(1, 80), ans(2, 70)], rank: 1, margin: 10, latencyMs: 10 }),
      res({ outcome: 'wrong', expected: seq('1'), answers: [ans(2, 60), ans(1, 60)], rank: 2, margin: 0, latencyMs: 30 }),
      res({ outcome: 'fallback_ok', expected: fallback, answers: [floor()], latencyMs: 20 }),
      res({ outcome: 'unlabeled', answers: [ans(3, 50, { is_suggestion_answer: true })] }),
      res({ outcome: 'error', expected: seq('1'), latencyMs: null }),
    ];
    const m = MetricsSchema.parse(computeMetrics(arraySource(results)));
    expect(m.intervals.top1Accuracy).toMatchObject({ successes: 2, n: 3 });
    expect(m.intervals.answerableAccuracy).toMatchObject({ value: 0.5, successes: 1, n: 2 });
    expect(m.intervals.rates.floor).toMatchObject({ value: 0.2, successes: 1, n: 5 });
    expect(m.intervals.rates.suggestion.successes).toBe(1);
    expect(m.intervals.rates.error.successes).toBe(1);
    expect(m.rank).toMatchObject({ questions: 2, hit1: 0.5, hit3: 1, hit5: 1, mrr: 0.75, meanMargin: 5 });
    expect(m.intervals.outOfScopeRecall).toMatchObject({ value: 1, successes: 1, n: 1 });
    expect(m.scores.correct).toMatchObject({ count: 1, percentiles: { p50: 80 } });
    expect(m.scores.notCorrect).toMatchObject({ count: 1, percentiles: { p50: 60 } });
    expect(m.scores.correct.histogram.edges).toEqual(m.scores.notCorrect.histogram.edges);
    expect(m.latency).toMatchObject({ p50: 10, p90: 30, max: 30 }); // 10, 10 (unlabeled), 20, 30
    // 10, 10, 20, 30 ms in bins of 2 ms over [10, 30]
    expect(m.latency.histogram).toEqual({ edges: [10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30], counts: [2, 0, 0, 0, 0, 1, 0, 0, 0, 1] });
    expect(m.thresholds).toMatchObject({ answerable: 2, outOfScope: 1, replayableFrom: 60, recommended: { threshold: 80, objective: 2 / 3 } });
    expect(m.breakdowns.language.map((s) => s.key)).toEqual(['en']);
    expect(m.confusions).toEqual([{ expected: '1', got: 'label-2', count: 1, examples: [results[1]!.id] }]);
  });
  it('score distributions go by whether the answer was right: a check_failed turn with a right answer is correct', () => {
    const turn = (expected: QuestionResult['expected'], score: number) => res({ outcome: 'check_failed', expected, answers: [ans(1, score)] });
    const m = computeMetrics(arraySource([
      res({ outcome: 'correct', expected: seq('1'), answers: [ans(1, 80)] }),
      turn(seq('1'), 70), // the answer met its expectations, a dialogue check failed: correct
      turn({ expect: 'answer' }, 65), // any answer was right: correct
      turn({ expect: null }, 90), // nothing expected of its answer: in neither
      res({ outcome: 'check_failed', expected: fallback, answers: [floor(40)] }), // a right refusal: in neither
      res({ outcome: 'wrong', expected: seq('1'), answers: [ans(2, 60)] }),
      res({ outcome: 'abstained', expected: seq('1'), answers: [floor(30)] }),
      res({ outcome: 'fallback_missed', expected: fallback, answers: [ans(3, 50)] }),
    ]));
    expect(m.scores.correct).toMatchObject({ count: 3, percentiles: { p10: 66, p50: 70 } });
    expect(m.scores.notCorrect).toMatchObject({ count: 3, percentiles: { p50: 50 } });
  });
  it('an all-error run: nothing to rate but the error rate', () => {
    const m = computeMetrics(arraySource([res({ outcome: 'error', latencyMs: null }), res({ outcome: 'error', expected: seq('1'), latencyMs: null })]));
    expect(m.intervals.top1Accuracy.value).toBeNull();
    expect(m.intervals.rates.error).toMatchObject({ value: 1, successes: 2, n: 2, high: 1 });
    expect(m.rank.questions).toBe(0);
    expect(m.scores.correct.count + m.scores.notCorrect.count).toBe(0);
    expect(m.latency).toEqual({ p50: null, p90: null, p99: null, max: null, histogram: { edges: [], counts: [] } });
    expect(m.thresholds.curve).toEqual([]);
    expect(m.breakdowns.language[0]).toMatchObject({ key: 'en', total: 2, errorRate: 1 });
    expect(m.confusions).toEqual([]);
  });
  it('a dataset with no labels and an empty run', () => {
    const m = computeMetrics(arraySource([res({ outcome: 'unlabeled', answers: [ans(1, 3)] })]));
    expect(m.intervals.top1Accuracy.n).toBe(0);
    expect(m.rank.hit1).toBeNull();
    expect(m.thresholds.recommended).toBeNull();
    expect(m.breakdowns.category.map((s) => s.key)).toEqual(['(category unknown)']);
    const empty = MetricsSchema.parse(computeMetrics(arraySource([])));
    expect(empty.breakdowns).toEqual({ language: [], tag: [], category: [] });
    expect(empty.intervals.rates.dummy.value).toBeNull();
  });
});

describe('BinCounter', () => {
  it('counts many values a chunk at a time exactly as d3 bins them at once', async () => {
    const { bin, nice, ticks } = await import('d3-array');
    const values = Array.from({ length: 10_007 }, (_, i) => ((i * 7919) % 1000) / 7.3);
    const [lo, hi] = nice(0, 999 / 7.3, 10);
    const whole = bin().domain([lo, hi]).thresholds(ticks(lo, hi, 10).filter((t) => t > lo && t < hi))(values);
    expect(histogram(values)).toEqual({ edges: [lo, ...whole.map((b) => b.x1)], counts: whole.map((b) => b.length) });
  });
});
