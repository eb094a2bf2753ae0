import type { AskResult } from '../model/ask-result.js';
import { OUTCOME_CLASSES, type Outcome } from '../model/outcome.js';
import type { Conversation, Question } from '../model/question.js';
import type { ConversationTurn, ConversationVerdict, QuestionResult } from '../model/report.js';
import type { Matcher } from './match.js';
import { toResult } from './result.js';

/**
 * How a conversation ended, from its turns' outcomes in order: `error` or `failed` at its first turn that ended in
 * error or failed (an error ends a conversation, so it is its last turn asked), else `passed`: every turn was
 * correct or fallback ok, or asked nothing of its answer and passed its checks (unlabeled). `at` is the deciding
 * turn's number (`numbers[i]`, by default i + 1).
 */
export function conversationVerdict(outcomes: readonly Outcome[], numbers?: readonly number[]): { verdict: ConversationVerdict; at: number | null } {
  for (const [i, o] of outcomes.entries()) {
    const c = OUTCOME_CLASSES[o];
    if (c.error) return { verdict: 'error', at: numbers?.[i] ?? i + 1 };
    if (c.failing) return { verdict: 'failed', at: numbers?.[i] ?? i + 1 };
  }
  return { verdict: 'passed', at: null };
}

/** The result with its place in its conversation, after `tags` and `meta` (QuestionResultSchema's order). */
export function withConversation(r: QuestionResult, conversation: ConversationTurn): QuestionResult {
  const { id, line, question, language, tags, meta, conversation: _, ...rest } = r;
  return { id, line, question, language, tags, ...(meta ? { meta } : {}), conversation, ...rest };
}

/** A turn that was not asked: an earlier turn (`after`) of its conversation ended in error. */
export function skippedResult(question: Question, defaultLanguage: string, after: number): QuestionResult {
  return {
    id: question.id,
    line: question.line,
    question: question.question,
    language: question.language ?? defaultLanguage,
    tags: question.tags,
    ...(question.meta ? { meta: question.meta } : {}),
    expected: { expect: question.expect, ...question.expected, ...question.checks },
    outcome: 'skipped',
    reason: `not asked: turn ${after} of the conversation ended in error`,
    top1Index: null,
    answers: [],
    unordered: false,
    latencyMs: null,
    attempts: 0,
    error: null,
    rank: null,
    margin: null,
  };
}

/** How one conversation was asked: a reply per turn asked (the last may be an error), and the wait after each. */
export interface AskedConversation {
  user: string;
  replies: readonly AskResult[];
  /** Milliseconds waited after turn i (its answer's delay, capped); 0 when none. */
  waitedMs: readonly number[];
}

/**
 * A conversation's results, a result per turn in order: each asked turn judged as a question is (toResult, with its
 * checks), the turns after one that ended in error `skipped`, and each stamped with the conversation's verdict.
 */
export function scoreConversation(c: Conversation, asked: AskedConversation, defaultLanguage: string, matcherOf: (q: Question) => Matcher): QuestionResult[] {
  const results: QuestionResult[] = [];
  let errorAt: number | undefined;
  for (const [i, turn] of c.turns.entries()) {
    const reply = asked.replies[i];
    if (errorAt !== undefined) {
      results.push(skippedResult(turn, defaultLanguage, errorAt));
      continue;
    }
    if (reply === undefined) throw new Error(`scoreConversation: turn ${i + 1} of "${c.id}" was not asked, and no turn before it ended in error`);
    const r = toResult(turn, reply, defaultLanguage, matcherOf(turn));
    if (r.outcome === 'error') errorAt = i + 1;
    results.push(r);
  }
  const { verdict, at } = conversationVerdict(results.map((r) => r.outcome));
  return results.map((r, i) => {
    const waited = asked.waitedMs[i] ?? 0;
    return withConversation(r, { id: c.id, turn: i + 1, turns: results.length, user: asked.user, verdict, at, ...(waited > 0 ? { waitedMs: waited } : {}) });
  });
}

/**
 * The results with every conversation's verdict decided again from its turns (after they were judged again, e.g. by
 * rescore). A conversation's turns are consecutive: they are held until the last one, a conversation at a time.
 */
export function* withVerdicts(results: Iterable<QuestionResult>): Generator<QuestionResult> {
  for (const item of byConversation(results)) {
    if (!Array.isArray(item)) {
      yield item;
      continue;
    }
    const { verdict, at } = conversationVerdict(item.map((r) => r.outcome), item.map((r) => r.conversation!.turn));
    for (const r of item) yield withConversation(r, { ...r.conversation!, verdict, at });
  }
}

/**
 * The results as they come, a single question alone and a conversation's turns together (they are consecutive; a
 * new conversation starts at another id or at turn 1): one conversation held at a time.
 */
export function* byConversation(results: Iterable<QuestionResult>): Generator<QuestionResult | QuestionResult[]> {
  const ready: (QuestionResult | QuestionResult[])[] = [];
  const groups = new TurnGroups((item) => ready.push(item));
  for (const r of results) {
    groups.push(r);
    for (const item of ready) yield item;
    ready.length = 0;
  }
  groups.end();
  yield* ready;
}

/** byConversation fed one result at a time: each single question, and each conversation's turns once its last is seen, go to `emit`. */
export class TurnGroups {
  private open: QuestionResult[] = [];

  constructor(private readonly emit: (item: QuestionResult | QuestionResult[]) => void) {}

  push(r: QuestionResult): void {
    const open = this.open;
    if (open.length > 0 && (r.conversation === undefined || r.conversation.id !== open[0]!.conversation!.id || r.conversation.turn === 1)) {
      this.emit(open);
      this.open = [];
    }
    if (r.conversation === undefined) this.emit(r);
    else this.open.push(r);
  }

  /** After the last result: the conversation still open. */
  end(): void {
    if (this.open.length > 0) this.emit(this.open);
    this.open = [];
  }
}
