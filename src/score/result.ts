import type { AskResult } from '../client/ask.js';
import { isDescending, topIndex } from '../client/response.js';
import type { Question } from '../model/question.js';
import type { QuestionResult, ReportAnswer } from '../model/report.js';
import { hasExpectations } from '../model/expectations.js';
import { judgeChecks } from './checks.js';
import { compileMatcher, type Matcher } from './match.js';
import { judge, withChecks } from './outcome.js';
import { explain } from './reason.js';
import { marginOf, rankOf, scoreOrder } from './rank.js';

const round2 = (ms: number): number => Math.round(ms * 100) / 100;

/**
 * One question's entry in the report: its outcome, ranked answers, the rank of the first matching answer
 * (only for rows with expectations) and what it cost; a turn's checks too. `matcher` is the row's compiled
 * expectations. A turn's place in its conversation is added once the conversation is scored (src/score/conversation.ts).
 */
export function toResult(question: Question, asked: AskResult, defaultLanguage: string, matcher: Matcher = compileMatcher(question.expected)): QuestionResult {
  const answers = asked.ok ? asked.response.answers : [];
  const top = topIndex(answers);
  const order = scoreOrder(answers);
  const postProcessed = asked.ok ? asked.response.post_processed_answer : undefined;
  const checks = asked.ok ? judgeChecks(question.checks, { postProcessedAnswer: postProcessed, top: answers[top] }) : undefined;
  const outcome = asked.ok ? withChecks(judge(question, answers[top], matcher), checks) : 'error';
  const rank = asked.ok && hasExpectations(question.expected) ? rankOf(answers, order, matcher) : null;
  const reason = explain({ outcome, expect: question.expect, expected: question.expected, matcher, answers, top, rank, order, ...(checks ? { failedChecks: checks.failed } : {}) });
  // keys in the order of QuestionResultSchema, so a report read back and written again is the same bytes
  return {
    id: question.id,
    line: question.line,
    question: question.question,
    language: question.language ?? defaultLanguage,
    tags: question.tags,
    ...(question.meta ? { meta: question.meta } : {}),
    expected: { expect: question.expect, ...question.expected, ...question.checks },
    outcome,
    ...(reason !== undefined ? { reason } : {}),
    ...(checks ? { checks: checks.results } : {}),
    top1Index: top < 0 ? null : top,
    answers,
    ...(postProcessed !== undefined ? { postProcessedAnswer: postProcessed } : {}),
    unordered: !isDescending(answers),
    latencyMs: asked.latencyMs === null ? null : round2(asked.latencyMs),
    attempts: asked.attempts,
    error: asked.ok ? null : { kind: asked.error.kind, message: asked.error.message, ...(asked.error.status ? { status: asked.error.status } : {}) },
    rank,
    margin: marginOf(answers, order),
  };
}

/** The top-1 answer of a result, if any. */
export const top1 = (result: Pick<QuestionResult, 'top1Index' | 'answers'>): ReportAnswer | undefined =>
  result.top1Index === null ? undefined : result.answers[result.top1Index];

/** The first answer meeting the expectations (at `rank`, counted in score order), if any. */
export const matchedAnswer = (result: Pick<QuestionResult, 'rank' | 'answers'>): ReportAnswer | undefined =>
  typeof result.rank === 'number' ? result.answers[scoreOrder(result.answers)[result.rank - 1]!] : undefined;
