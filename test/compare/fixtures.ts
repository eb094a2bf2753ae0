import { createHash } from 'node:crypto';
import type { Outcome } from '../../src/model/outcome.js';
import { turnId } from '../../src/model/question.js';
import type { QuestionResult, Report } from '../../src/model/report.js';
import { conversationVerdict } from '../../src/score/conversation.js';
import { summarize } from '../../src/score/summary.js';
import { ans } from '../helpers/results.js';

/** A stored answer item. */
export const answer = ans;

/** A result whose top-1 is answer `top` (score `score`), or none; `rank` left out unless given. */
export function result(id: string, outcome: Outcome, top: number | null = 1, score = 90, extra: Partial<QuestionResult> = {}): QuestionResult {
  const expect = outcome === 'unlabeled' ? null : outcome.startsWith('fallback') ? 'fallback' : 'answer';
  return {
    id,
    line: 1,
    question: `question ${id}`,
    language: 'en',
    tags: [],
    // the same expectation whatever the outcome, so one id on both sides is the same question (compare sets
    // apart a question whose expectation was edited); a real result's rank exists only for rows with expectations
    expected: expect === 'answer' ? { expect, sequence: ['1'] } : { expect },
    outcome,
    top1Index: top === null || outcome === 'error' ? null : 0,
    answers: top === null || outcome === 'error' ? [] : [answer(top, score), answer(top + 100, score / 2)],
    unordered: false,
    latencyMs: outcome === 'error' ? null : 10,
    attempts: 1,
    error: outcome === 'error' ? { kind: 'http', message: 'HTTP 500', status: 500 } : null,
    ...extra,
  };
}

/**
 * A stand-in for the sha256 of the dataset the results were asked from: the same questions (ids, texts, languages,
 * expectations), the same dataset, as a real run's `run.dataset.sha256` (a run of part of the same dataset is made
 * by giving the fuller report's dataset).
 */
const datasetSha = (results: readonly QuestionResult[]): string =>
  createHash('sha256')
    .update(JSON.stringify(results.map((r) => [r.id, r.question, r.language, r.expected])))
    .digest('hex');

export function report(results: QuestionResult[], overrides: { agent?: string; sha256?: string; schemaVersion?: string } = {}): Report {
  return {
    schemaVersion: overrides.schemaVersion ?? '1.0',
    tool: { name: 'answer-eval', version: '0.1.0' },
    run: {
      startedAt: '2025-01-01T00:00:00.000Z',
      finishedAt: '2025-01-01T00:00:01.000Z',
      durationMs: 1000,
      status: 'completed',
      baseUrl: 'http://127.0.0.1:1',
      embeddedEngine: false,
      agent: overrides.agent ?? 'demo',
      dataset: { path: 'qs.csv', sha256: overrides.sha256 ?? datasetSha(results), questions: results.length },
      options: { concurrency: 1, timeoutMs: 1000, retries: 0, language: 'en', output: 'json', guest: true, forceSubscription: false },
    },
    summary: summarize(results),
    results,
  };
}

/** n results with the given outcome, ids `${prefix}${i}`. */
export const many = (prefix: string, n: number, outcome: Outcome, extra: Partial<QuestionResult> = {}): QuestionResult[] =>
  Array.from({ length: n }, (_, i) => result(`${prefix}${i}`, outcome, 1, 90, extra));

export const FILES = { base: 'base.json', head: 'head.json' };

/** A conversation's results, one per outcome, stamped with the verdict those outcomes give. */
export function conversation(id: string, outcomes: Outcome[], over: (turn: number) => Partial<QuestionResult> = () => ({})): QuestionResult[] {
  const { verdict, at } = conversationVerdict(outcomes);
  return outcomes.map((o, i) => {
    const turn = i + 1;
    const r = result(turnId(id, turn), o, o === 'skipped' ? null : 1, 80, { question: `${id} turn ${turn}`, tags: ['dialogue'], ...over(turn) });
    const reason = o === 'wrong' ? `expected label "x-${turn}"` : o === 'skipped' ? 'not asked' : undefined;
    return { ...r, conversation: { id, turn, turns: outcomes.length, user: `u-${id}`, verdict, at }, ...(reason ? { reason } : {}) };
  });
}

/**
 * Two runs of a mixed dataset: a single question and conversations that break (`breaks` at turn 2, `errs` by an
 * error at turn 1, the hostile `x <img…>` on a check at turn 2), one fixed (`mends`), one failing on both sides
 * (`still`), one only in BASE (`gone`) or HEAD (`new`), one with a turn added (`longer`) or edited (`edited`).
 */
export function conversationPair(): { base: Report; head: Report; IMG: string } {
  const IMG = '<img src=x onerror="window.__xss=1">';
  const base = report([
    result('single', 'correct'),
    ...conversation('breaks', ['correct', 'correct', 'correct']),
    ...conversation('mends', ['correct', 'wrong']),
    ...conversation('errs', ['correct', 'correct']),
    ...conversation('still', ['wrong', 'correct']),
    ...conversation('gone', ['correct']),
    ...conversation('longer', ['correct', 'correct']),
    ...conversation('edited', ['correct', 'correct']),
    ...conversation(`x ${IMG}`, ['correct', 'correct']),
  ]);
  const head = report([
    result('single', 'correct'),
    ...conversation('breaks', ['correct', 'wrong', 'correct']),
    ...conversation('mends', ['correct', 'correct']),
    ...conversation('errs', ['error', 'skipped']),
    ...conversation('still', ['wrong', 'wrong']),
    ...conversation('longer', ['correct', 'correct', 'correct']),
    ...conversation('edited', ['correct', 'wrong'], (t) => (t === 2 ? { question: 'reworded' } : {})),
    ...conversation(`x ${IMG}`, ['correct', 'check_failed']),
    ...conversation('new', ['correct', 'wrong']),
  ]);
  return { base, head, IMG };
}
