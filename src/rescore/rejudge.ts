import { EXPECTATION_KEYS, type Expectations } from '../model/expectations.js';
import type { Question } from '../model/question.js';
import type { QuestionResult } from '../model/report.js';
import { TURN_CHECK_KEYS, type TurnCheckValues } from '../model/turn-checks.js';
import { skippedResult, withConversation } from '../score/conversation.js';
import type { Matcher } from '../score/match.js';
import { replyOf } from '../score/reply.js';
import { repeatsAtFloor, repeatsOf } from '../score/repeats.js';
import { toResult } from '../score/result.js';

/** A question as a result recorded it: enough to judge its answers again (a turn's checks too). */
export function questionOf(r: QuestionResult): Question {
  const recorded = r.expected as Record<string, unknown>;
  const pick = (keys: readonly string[]) => Object.fromEntries(keys.flatMap((k) => (recorded[k] === undefined ? [] : [[k, recorded[k]]])));
  const q: Question = { id: r.id, line: r.line, question: r.question, expect: r.expected.expect, expected: pick(EXPECTATION_KEYS) as Expectations, language: r.language, tags: r.tags };
  const checks = pick(TURN_CHECK_KEYS) as TurnCheckValues;
  if (Object.keys(checks).length > 0) q.checks = checks;
  if (r.conversation) q.conversation = { id: r.conversation.id, turn: r.conversation.turn };
  if (r.meta) q.meta = r.meta;
  return q;
}

/**
 * A result judged again, exactly as the run judged it (toResult), against `question` (its expectations, possibly
 * corrected) and `matcher` (compiled with the alias file): its outcome, rank, margin and reason. With `floor`, the
 * answers scoring below it are dropped first, as if the service had refused them: a list left empty, or a top-1
 * below the floor (then every answer is), is judged as a refusal (abstained, or fallback_ok for an out-of-scope row).
 * The further askings of a --repeat run are kept (their top-1 below the floor refused too).
 */
export function rejudge(r: QuestionResult, question: Question, defaultLanguage: string, matcher: Matcher, floor?: number): QuestionResult {
  // a turn keeps its place in its conversation; the conversation's verdict is decided again over its turns (withVerdicts)
  if (r.outcome === 'skipped') return withConversation(skippedResult(question, defaultLanguage, r.conversation?.at ?? 0), r.conversation!);
  let judged = toResult(question, replyOf(r, floor), defaultLanguage, matcher);
  if (r.conversation) judged = withConversation(judged, r.conversation);
  // the latency the run measured, not the 0 an answered result without one would get
  if (r.error === null && r.latencyMs === null) judged = { ...judged, latencyMs: null };
  if (r.repeats) judged = { ...judged, repeats: floor === undefined ? repeatsOf(judged, r.repeats.others) : repeatsAtFloor(judged, r.repeats, floor) };
  return judged;
}
