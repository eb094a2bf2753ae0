import { describe, expect, it } from 'vitest';
import { THRESHOLD_OBJECTIVES } from '../../src/model/metrics.js';
import type { QuestionResult } from '../../src/model/report.js';
import { mulberry32 } from '../../src/util/random.js';
import { CROSS_VALIDATION_FOLDS, thresholdAnalysis, type ThresholdOptions } from '../../src/score/metrics/thresholds.js';
import { ans, res } from '../helpers/results.js';

const seq = (s: number): QuestionResult['expected'] => ({ expect: 'answer', sequence: [String(s)] });
const fallback: QuestionResult['expected'] = { expect: 'fallback' };
const floorAnswer = ans(99, 5, { is_dummy_floor_answer: true, label: 'floor' });
const right = (score: number) => res({ outcome: 'correct', expected: seq(1), answers: [ans(1, score)] });
const wrong = (score: number) => res({ outcome: 'wrong', expected: seq(1), answers: [ans(2, score)] });
const missed = (score: number) => res({ outcome: 'fallback_missed', expected: fallback, answers: [ans(3, score)] });
const refused = (empty = false) => res({ outcome: 'fallback_ok', expected: fallback, answers: empty ? [] : [floorAnswer] });

describe('the recommended floor, cross-validated', () => {
  it('chooses each fold on the other four and measures it on its own questions (hand-computed)', () => {
    // dealt in turn, answerable and out-of-scope apart: fold k holds a_k and o_k
    const a = [right(90), right(70), wrong(60), right(80), right(50)];
    const o = [missed(55), missed(65), refused(true), missed(40), refused()];
    const t = thresholdAnalysis([a[0]!, o[0]!, a[1]!, a[2]!, o[1]!, o[2]!, a[3]!, o[3]!, a[4]!, o[4]!]);
    // in sample: at 70, 3/5 answered correctly, 5/5 refused, F1 0.75
    expect(t.recommended).toMatchObject({ threshold: 70, answeredCorrectly: 0.6, refusedCorrectly: 1, coverage: 0.6 });
    expect(t.recommended!.objective).toBeCloseTo(0.75, 12);
    // fold 0 (without 90 and 55): F1 0.75 at 50 beats 0.667 at 70; fold 1 (without 70 and 65): 0.75 at 50;
    // folds 2, 3, 4: 0.857, 0.667 and 0.857 at 70
    expect(t.crossValidated!.thresholds).toEqual([50, 50, 70, 70, 70]);
    // held out: 90 and 70 answered at 50, 60 refused at 70 (wrong anyway), 80 answered at 70, 50 refused at 70;
    // 55 and 65 answered at 50, the empty list, 40 (below 70) and the floor answer refused
    expect(t.crossValidated).toMatchObject({ folds: 5, answeredCorrectly: 0.6, refusedCorrectly: 0.6, coverage: 0.6 });
    expect(t.crossValidated!.objective).toBeCloseTo(0.6, 12);
  });

  it('keep-accuracy: each fold keeps the highest floor within the drop of its own best', () => {
    const results = [right(90), right(80), wrong(75), right(70), right(60), right(50), missed(65)];
    const t = thresholdAnalysis(results, { objective: 'keep-accuracy', maxAccuracyDrop: 0.2 });
    // answerable folds: 0 {90, 50}, 1 {80}, 2 {75 wrong}, 3 {70}, 4 {60}; each fold's floor, by hand:
    //   fold 0: training {80, 75w, 70, 60}: best 3/4, floor 0.55: 2/4 at 70 is below, 3/4 at 60 → 60
    //   fold 1: {90, 75w, 70, 60, 50}: best 4/5, floor 0.6: 3/5 at 60 → 60
    //   fold 2: {90, 80, 70, 60, 50}: best 5/5, floor 0.8: 4/5 at 60 → 60
    //   fold 3: {90, 80, 75w, 60, 50}: best 4/5, floor 0.6: 3/5 at 60 → 60
    //   fold 4: {90, 80, 75w, 70, 50}: best 4/5, floor 0.6: 3/5 at 70 → 70
    expect(t.crossValidated!.thresholds).toEqual([60, 60, 60, 60, 70]);
    // held out: 90 right, 50 refused; 80, 70 right; 75 answered (wrong); 60 refused at 70
    expect(t.crossValidated).toMatchObject({ answeredCorrectly: 3 / 6, coverage: 4 / 6, refusedCorrectly: 0 });
    expect(t.crossValidated!.objective).toBe(t.crossValidated!.answeredCorrectly);
  });

  it('says nothing rather than noise: fewer answerable (or, for F1, out-of-scope) questions than folds', () => {
    const five = [right(90), right(80), wrong(70), right(60), right(50)];
    expect(thresholdAnalysis([...five, missed(65), refused(), refused(), refused()]).crossValidated).toBeNull();
    expect(thresholdAnalysis([...five, missed(65), refused(), refused(), refused(), refused()]).crossValidated).not.toBeNull();
    expect(thresholdAnalysis([...five.slice(1), missed(65), refused(), refused(), refused(), refused()]).crossValidated).toBeNull();
    // keep-accuracy needs no out-of-scope question
    expect(thresholdAnalysis(five, { objective: 'keep-accuracy' }).crossValidated).not.toBeNull();
    expect(thresholdAnalysis(five).crossValidated).toBeNull();
  });

  it('a check_failed turn whose answer met its expectations is answered correctly in the replay', () => {
    const turn = res({ outcome: 'check_failed', expected: seq(1), answers: [ans(1, 70)] });
    const asWrong = res({ outcome: 'wrong', expected: seq(1), answers: [ans(2, 70)] });
    const t = (r: QuestionResult) => thresholdAnalysis([r, right(80), missed(60)]).curve[0]!;
    expect(t(turn)).toMatchObject({ threshold: 60, answeredCorrectly: 1, coverage: 1 });
    expect(t(asWrong)).toMatchObject({ threshold: 60, answeredCorrectly: 0.5, coverage: 1 });
    // an out-of-scope turn refused by a floor answer stays refused when its dialogue check failed
    const oosTurn = res({ outcome: 'check_failed', expected: fallback, answers: [floorAnswer] });
    expect(thresholdAnalysis([oosTurn, right(80)]).curve[0]).toMatchObject({ refusedCorrectly: 1 });
  });

  it('equals choosing each fold with the in-sample analysis of the other folds, on random runs and every objective', () => {
    const rand = mulberry32(11);
    let validated = 0;
    for (let round = 0; round < 40; round++) {
      const n = 10 + Math.floor(rand() * 60);
      const results: QuestionResult[] = [];
      for (let i = 0; i < n; i++) {
        const score = Math.round(rand() * 20) * 5; // many ties
        const kind = rand();
        if (kind < 0.55) results.push(rand() < 0.6 ? right(score) : wrong(score));
        else if (kind < 0.65) results.push(res({ outcome: 'abstained', expected: seq(1), answers: rand() < 0.5 ? [] : [floorAnswer] }));
        else if (kind < 0.85) results.push(missed(score));
        else if (kind < 0.95) results.push(refused(rand() < 0.5));
        else results.push(res({ outcome: 'error', expected: seq(1) }));
      }
      for (const objective of THRESHOLD_OBJECTIVES) {
        const options: ThresholdOptions = { objective, oosShare: 0.3, maxAccuracyDrop: 0.05 };
        const expected = bruteForce(results, options);
        expect(thresholdAnalysis(results, options).crossValidated).toEqual(expected);
        if (expected !== null) validated++;
      }
    }
    expect(validated).toBeGreaterThan(80); // of 120: the small runs are the null ones
  });
});

/** The definition, literally: deal the folds, run the whole analysis on each training set, replay its floor on the fold. */
function bruteForce(results: QuestionResult[], options: ThresholdOptions) {
  const k = CROSS_VALIDATION_FOLDS;
  const counted = results.filter((r) => r.outcome !== 'error');
  const seen = { answer: 0, fallback: 0 };
  const foldOf = new Map(counted.map((r) => [r, seen[r.expected.expect as 'answer' | 'fallback']++ % k]));
  const answerable = seen.answer;
  const outOfScope = seen.fallback;
  const whole = thresholdAnalysis(results, options);
  if (whole.recommended === null || answerable < k || (whole.objective !== 'keep-accuracy' && outOfScope < k)) return null;
  let correct = 0;
  let answered = 0;
  let refusedOut = 0;
  const thresholds: number[] = [];
  for (let f = 0; f < k; f++) {
    const floor = thresholdAnalysis(counted.filter((r) => foldOf.get(r) !== f), options).recommended!.threshold;
    thresholds.push(floor);
    for (const r of counted.filter((q) => foldOf.get(q) === f)) {
      const top = r.answers[r.top1Index ?? -1];
      const isAnswered = top !== undefined && !top.is_dummy_floor_answer && top.answer_score >= floor;
      if (r.expected.expect === 'answer') {
        if (isAnswered) answered++;
        if (isAnswered && r.outcome === 'correct') correct++;
      } else if (!isAnswered) refusedOut++;
    }
  }
  const answeredCorrectly = correct / answerable;
  const refusedCorrectly = outOfScope === 0 ? 0 : refusedOut / outOfScope;
  const p = whole.oosShare ?? 0;
  const objective =
    whole.objective === 'f1' ? (answeredCorrectly + refusedCorrectly === 0 ? 0 : (2 * answeredCorrectly * refusedCorrectly) / (answeredCorrectly + refusedCorrectly))
    : whole.objective === 'live-accuracy' ? (1 - p) * answeredCorrectly + p * refusedCorrectly
    : answeredCorrectly;
  return { folds: k, thresholds, answeredCorrectly, refusedCorrectly, coverage: answered / answerable, objective };
}
