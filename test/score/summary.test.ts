import { describe, expect, it } from 'vitest';
import type { QuestionResult } from '../../src/model/report.js';
import { LatencyRecorder } from '../../src/score/latency.js';
import { summarize } from '../../src/score/summary.js';

const flags = { is_agent_answer: true, is_dummy_answer: false, is_dummy_floor_answer: false, is_suggestion_answer: false, is_international_question: false, is_dialog_in_progress: false, is_dialogue_answer: false };
function result(outcome: QuestionResult['outcome'], top: Partial<typeof flags> | null, latencyMs: number | null = 10): QuestionResult {
  const answers = top === null ? [] : [{ answer: 'a', sequence_number: 1, answer_score: 50, tags: [], delay: -1, ...flags, ...top }];
  return {
    id: 'x', line: 1, question: 'q', language: 'en', tags: [], expected: { expect: null }, outcome,
    top1Index: answers.length > 0 ? 0 : null, answers, unordered: false, latencyMs, attempts: 1,
    error: outcome === 'error' ? { kind: 'network', message: 'ECONNRESET' } : null,
  };
}

describe('summarize', () => {
  it('matches a hand count', () => {
    const results = [
      result('correct', {}),
      result('correct', { is_dummy_answer: true }),
      result('wrong', { is_suggestion_answer: true }),
      result('abstained', { is_dummy_floor_answer: true }),
      result('abstained', null),
      result('fallback_ok', { is_dummy_floor_answer: true }),
      result('fallback_missed', {}),
      result('unlabeled', {}),
      result('error', null, null),
      result('error', null, null),
    ];
    const s = summarize(results);
    expect(s.total).toBe(10);
    expect(s.outcomes).toEqual({ correct: 2, wrong: 1, abstained: 2, fallback_ok: 1, fallback_missed: 1, unlabeled: 1, check_failed: 0, error: 2, skipped: 0 });
    // labeled without error: 10 - 1 unlabeled - 2 errors = 7; (2 correct + 1 fallback_ok) / 7
    expect(s.top1Accuracy).toBeCloseTo(3 / 7, 12);
    expect(s.answerableAccuracy).toBeCloseTo(2 / 5, 12);
    expect(s.rates).toEqual({ dummy: 0.1, floor: 0.2, suggestion: 0.1, empty: 0.1, error: 0.2 });
    expect(s.latencyMs.p50).toBe(10);
  });

  it('gives null ratios when nothing can be scored (all errors)', () => {
    const s = summarize([result('error', null, null)]);
    expect(s.top1Accuracy).toBeNull();
    expect(s.answerableAccuracy).toBeNull();
    expect(s.latencyMs).toEqual({ p50: null, p90: null, p99: null, max: null });
    expect(s.rates.error).toBe(1);
  });
});

describe('LatencyRecorder', () => {
  it('reads percentiles from an HDR histogram to 3 significant digits', () => {
    const recorder = new LatencyRecorder();
    for (let ms = 1; ms <= 100; ms++) recorder.record(ms);
    const p = recorder.result();
    expect(p.p50).toBeCloseTo(50, 1);
    expect(p.p90).toBeCloseTo(90, 1);
    expect(p.p99).toBeCloseTo(99, 1);
    expect(p.max).toBeCloseTo(100, 1);
  });
});
