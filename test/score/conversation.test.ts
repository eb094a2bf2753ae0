import { describe, expect, it } from 'vitest';
import { QuestionError, type AskResult } from '../../src/model/ask-result.js';
import type { Conversation, Question } from '../../src/model/question.js';
import type { QuestionResult } from '../../src/model/report.js';
import { arraySource } from '../../src/model/source.js';
import { conversationVerdict, scoreConversation, withVerdicts } from '../../src/score/conversation.js';
import { compileMatcher } from '../../src/score/match.js';
import { scoreResults } from '../../src/score/metrics/index.js';
import { toResult } from '../../src/score/result.js';
import { ans, res } from '../helpers/results.js';

const turn = (id: string, n: number, over: Partial<Question> = {}): Question => ({
  id: `${id}#${n}`, line: 1, question: `turn ${n}`, expect: 'answer', expected: { label: [`label-${n}`] }, tags: [], conversation: { id, turn: n }, ...over,
});
const reply = (answer: ReturnType<typeof ans>, post?: string): AskResult => ({
  ok: true, response: { answers: [answer], ...(post !== undefined ? { post_processed_answer: post } : {}) }, attempts: 1, latencyMs: 5,
});
const failed: AskResult = { ok: false, error: new QuestionError('http', 'HTTP 500 from http://x/api/v1/answer'), attempts: 1, latencyMs: 3 };

describe('conversationVerdict', () => {
  it('passes when no turn failed or erred; else fails or errs at the first turn that did', () => {
    expect(conversationVerdict(['correct', 'fallback_ok', 'unlabeled'])).toEqual({ verdict: 'passed', at: null });
    expect(conversationVerdict(['correct', 'wrong', 'check_failed'])).toEqual({ verdict: 'failed', at: 2 });
    expect(conversationVerdict(['correct', 'error', 'skipped'])).toEqual({ verdict: 'error', at: 2 });
    expect(conversationVerdict(['abstained', 'error', 'skipped'])).toEqual({ verdict: 'failed', at: 1 });
    expect(conversationVerdict(['correct', 'check_failed'], [4, 7])).toEqual({ verdict: 'failed', at: 7 });
  });
});

describe('turn checks', () => {
  it('a right answer with a failed check is check_failed, and the reason names the check', () => {
    const q = turn('r', 2, { expected: { label: ['customer_number'] }, checks: { post_processed: 'contains:already answer', dialog: 'none' } });
    const r = toResult(q, reply(ans(81, 60, { label: 'customer_number' })), 'en');
    expect(r.outcome).toBe('check_failed');
    expect(r.checks).toEqual({ post_processed: false, dialog: true });
    expect(r.reason).toBe('expected post-processed answer "contains:already answer"; the reply has none');
    expect(r.expected).toEqual({ expect: 'answer', label: ['customer_number'], post_processed: 'contains:already answer', dialog: 'none' });
  });

  it('a wrong answer stays wrong, its reason naming the failed checks too; none: must be absent', () => {
    const q = turn('m', 3, { expected: { label: ['meter_reading_value'] }, checks: { dialog: 'none', post_processed: 'none' } });
    const r = toResult(q, reply(ans(201, 47.7, { label: 'meter_reading_number', is_dialog_in_progress: true }), 'ehi! again?'), 'en');
    expect(r.outcome).toBe('wrong');
    expect(r.checks).toEqual({ post_processed: false, dialog: false });
    expect(r.reason).toBe(
      'expected label "meter_reading_value"; top-1 is #201 "meter_reading_number" (score 47.7); and expected no post-processed answer; the reply has "ehi! again?"; expected dialog none; the reply leaves it in_progress',
    );
  });

  it('a turn that expects nothing of its answer is unlabeled when its checks pass, check_failed when one fails', () => {
    const q = turn('u', 1, { expect: null, expected: {}, checks: { dialog: 'in_progress' } });
    expect(toResult(q, reply(ans(1, 50, { is_dialog_in_progress: true })), 'en').outcome).toBe('unlabeled');
    expect(toResult(q, reply(ans(1, 50)), 'en').outcome).toBe('check_failed');
  });
});

describe('scoreConversation', () => {
  const c: Conversation = { id: 'move', line: 4, turns: [turn('move', 1), turn('move', 2), turn('move', 3)] };
  const score = (replies: AskResult[], waitedMs: number[] = []) =>
    scoreConversation(c, { user: 'u-move', replies, waitedMs }, 'en', (q) => compileMatcher(q.expected));

  it('a result per turn, each with its place, the user and the verdict; the wait a delay asked for', () => {
    const results = score([reply(ans(1, 70, { label: 'label-1' })), reply(ans(2, 70, { label: 'label-2' })), reply(ans(3, 70, { label: 'label-3' }))], [0, 2000, 0]);
    expect(results.map((r) => [r.id, r.outcome, r.conversation])).toEqual([
      ['move#1', 'correct', { id: 'move', turn: 1, turns: 3, user: 'u-move', verdict: 'passed', at: null }],
      ['move#2', 'correct', { id: 'move', turn: 2, turns: 3, user: 'u-move', verdict: 'passed', at: null, waitedMs: 2000 }],
      ['move#3', 'correct', { id: 'move', turn: 3, turns: 3, user: 'u-move', verdict: 'passed', at: null }],
    ]);
    // the conversation sits after tags, as QuestionResultSchema orders it
    expect(Object.keys(results[0]!).slice(0, 7)).toEqual(['id', 'line', 'question', 'language', 'tags', 'conversation', 'expected']);
  });

  it('a turn that ended in error ends the conversation: the turns after it are skipped, not asked', () => {
    const results = score([reply(ans(1, 70, { label: 'label-1' })), failed]);
    expect(results.map((r) => [r.outcome, r.conversation!.verdict, r.conversation!.at, r.reason ?? null, r.attempts])).toEqual([
      ['correct', 'error', 2, null, 1],
      ['error', 'error', 2, null, 1],
      ['skipped', 'error', 2, 'not asked: turn 2 of the conversation ended in error', 0],
    ]);
  });
});

describe('conversation metrics, counted by hand', () => {
  // three conversations: a passes (2 turns); b fails at turn 2 (wrong) then passes turn 3; c errs at turn 1
  const conv = (id: string, turns: number, verdict: 'passed' | 'failed' | 'error', at: number | null) => (n: number) => ({ id, turn: n, turns, user: `u-${id}`, verdict, at });
  const a = conv('a', 2, 'passed', null);
  const b = conv('b', 3, 'failed', 2);
  const c = conv('c', 2, 'error', 1);
  // a response with an answer, and an expectation (so rank metrics count it)
  const answered = (over: Parameters<typeof res>[0]): QuestionResult => res({ answers: [ans(1, 50)], expected: { expect: 'answer', label: ['label-1'] }, ...over });
  const results: QuestionResult[] = [
    answered({ outcome: 'correct', conversation: a(1), checks: { dialog: true } }),
    answered({ outcome: 'correct', conversation: a(2), checks: { dialog: true, post_processed: true } }),
    answered({ id: 'single', outcome: 'wrong' }),
    answered({ outcome: 'correct', conversation: b(1), checks: { dialog: true } }),
    answered({ outcome: 'wrong', conversation: b(2), checks: { dialog: false } }),
    answered({ outcome: 'correct', conversation: b(3) }),
    res({ outcome: 'error', conversation: c(1), latencyMs: null, expected: { expect: 'answer', label: ['label-1'] } }),
    res({ outcome: 'skipped', conversation: c(2), latencyMs: null, attempts: 0, error: null, expected: { expect: 'answer', label: ['label-1'] } }),
  ];
  const { summary, metrics } = scoreResults(arraySource(results));

  it('pass rate over conversations not in error; turn accuracy by position; where they break; each check apart', () => {
    const m = metrics.conversations!;
    expect(m.count).toBe(3);
    expect(m.verdicts).toEqual({ passed: 1, failed: 1, error: 1 });
    expect([m.passRate.successes, m.passRate.n, m.passRate.value]).toEqual([1, 2, 0.5]);
    expect(m.turnOutcomes).toMatchObject({ correct: 4, wrong: 1, error: 1, skipped: 1 });
    // judged turns: 4 correct + 1 wrong
    expect([m.turnAccuracy.successes, m.turnAccuracy.n]).toEqual([4, 5]);
    expect(m.byTurn.map((p) => [p.turn, p.asked, p.accuracy.successes, p.accuracy.n, p.failedHere, p.errorsHere])).toEqual([
      [1, 3, 2, 2, 0, 1],
      [2, 2, 1, 2, 1, 0],
      [3, 1, 1, 1, 0, 0],
    ]);
    expect(m.breaksMost).toEqual({ turn: 2, conversations: 1 });
    expect([m.checks.dialog.successes, m.checks.dialog.n, m.checks.post_processed.successes, m.checks.post_processed.n]).toEqual([3, 4, 1, 1]);
  });

  it('a skipped turn is neither an error, nor an empty answer list, nor a ranked question', () => {
    expect(summary.outcomes).toMatchObject({ error: 1, skipped: 1 });
    expect(summary.rates.empty).toBe(0);
    expect(metrics.rank.questions).toBe(6); // the 8 results less the error and the skipped turn
    expect(metrics.thresholds.answerable).toBe(6);
  });

  it('withVerdicts decides each conversation again from its turns', () => {
    const rejudged = results.map((r) => (r.conversation?.id === 'b' && r.conversation.turn === 2 ? { ...r, outcome: 'correct' as const } : r));
    expect([...withVerdicts(rejudged)].map((r) => r.conversation && [r.conversation.id, r.conversation.verdict, r.conversation.at])).toEqual([
      ['a', 'passed', null], ['a', 'passed', null], undefined, ['b', 'passed', null], ['b', 'passed', null], ['b', 'passed', null], ['c', 'error', 1], ['c', 'error', 1],
    ]);
  });
});
