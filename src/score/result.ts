import { isDescending, NO_ENTRY, topIndex } from '../model/answer.js';
import type { AskResult } from '../model/ask-result.js';
import type { Question } from '../model/question.js';
import type { QuestionResult, ReportAnswer } from '../model/report.js';
import { hasExpectations } from '../model/expectations.js';
import { needsAttention } from '../model/outcome.js';
import { TURN_CHECKS } from '../model/turn-checks.js';
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
 * The answers are judged as the service sent them and kept as `asked.shown` has them when it echoed a secret (masked,
 * src/client/ask.ts): the reason quotes the kept ones, the question's own text and expectations stay as written.
 * What was sent otherwise than the run's defaults is kept (`sent`), and a non-json reply's output, with its body
 * only for a question that did not pass (failing or in error: what a reader opens; the others' answers say it all).
 * A text reply has no scores (every answer reads 0): it has no margin.
 */
export function toResult(question: Question, asked: AskResult, defaultLanguage: string, matcher: Matcher = compileMatcher(question.expected)): QuestionResult {
  const answers = asked.ok ? asked.response.answers : [];
  const masked = asked.ok ? asked.shown : undefined;
  const shown = asked.ok ? (masked ?? asked.response) : undefined;
  const top = topIndex(answers);
  const order = scoreOrder(answers);
  const postProcessed = shown?.post_processed_answer;
  const checks = asked.ok ? judgeChecks(question.checks, { postProcessedAnswer: asked.response.post_processed_answer, top: answers[top] }) : undefined;
  const outcome = asked.ok ? withChecks(judge(question, answers[top], matcher), checks) : 'error';
  const rank = asked.ok && hasExpectations(question.expected) ? rankOf(answers, order, matcher) : null;
  // what a failed check found, as the kept reply has it
  const failedChecks = checks && masked ? checks.failed.map((f) => ({ ...f, actual: TURN_CHECKS[f.key].of({ postProcessedAnswer: postProcessed, top: masked.answers[top] }) })) : checks?.failed;
  const fromText = asked.reply?.output === 'text';
  const reason = explain({ outcome, expect: question.expect, expected: question.expected, matcher, answers, ...(masked ? { shown: masked.answers } : {}), top, rank, order, ...(failedChecks ? { failedChecks } : {}), ...(fromText ? { fromText } : {}) });
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
    answers: shown?.answers ?? [],
    ...(postProcessed !== undefined ? { postProcessedAnswer: postProcessed } : {}),
    unordered: !isDescending(answers),
    latencyMs: asked.latencyMs === null ? null : round2(asked.latencyMs),
    attempts: asked.attempts,
    error: asked.ok ? null : { kind: asked.error.kind, message: asked.error.message, ...(asked.error.status ? { status: asked.error.status } : {}) },
    rank,
    margin: fromText ? null : marginOf(answers, order),
    ...(asked.sent ? { sent: asked.sent } : {}),
    ...(asked.reply ? { reply: needsAttention(outcome) ? asked.reply : { output: asked.reply.output } } : {}),
  };
}

/** The top-1 answer of a result, if any. */
export const top1 = (result: Pick<QuestionResult, 'top1Index' | 'answers'>): ReportAnswer | undefined =>
  result.top1Index === null ? undefined : result.answers[result.top1Index];

/** The first answer meeting the expectations (at `rank`, counted in score order), if any. */
export const matchedAnswer = (result: Pick<QuestionResult, 'rank' | 'answers'>): ReportAnswer | undefined =>
  typeof result.rank === 'number' ? result.answers[scoreOrder(result.answers)[result.rank - 1]!] : undefined;

/** Whether a result's answers carry the service's scores: a text reply has none (its answers all read 0). */
export const hasScores = (result: Pick<QuestionResult, 'reply'>): boolean => result.reply?.output !== 'text';

/** Whether an answer of a result is an entry the run knows: not a text answer whose entry could not be recovered. */
export const knownEntry = (result: Pick<QuestionResult, 'reply'>, answer: Pick<ReportAnswer, 'sequence_number'>): boolean =>
  result.reply?.output !== 'text' || answer.sequence_number !== NO_ENTRY;
