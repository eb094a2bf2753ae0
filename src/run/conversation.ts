import { ask, type AskContext, type AskResult } from '../client/ask.js';
import { topIndex } from '../client/response.js';
import { sleep } from '../client/sleep.js';
import type { Conversation } from '../model/question.js';
import type { AskedConversation } from '../score/conversation.js';

/** The longest wait honoured after a turn whose answer asks for a `delay`, by default. */
export const DEFAULT_MAX_TURN_DELAY_MS = 10_000;

/** The user a conversation is asked as: its own username, or a fresh one per run and conversation. */
export const conversationUser = (c: Conversation, run: string): string => c.username ?? `answer-eval-${run}-${c.id}`;

/**
 * How long to wait before the next turn: the top-1 answer's `delay`, which the service gives in seconds (the embedded
 * engine's docs say so; `-1`: none asked), when positive, capped at `maxMs`.
 */
export function turnDelayMs(reply: AskResult, maxMs: number): number {
  if (!reply.ok) return 0;
  const answers = reply.response.answers;
  const seconds = answers[topIndex(answers)]?.delay ?? -1;
  return seconds > 0 ? Math.min(seconds * 1000, maxMs) : 0;
}

/**
 * Asks a conversation's turns one after the other as `user` (never as a guest), waiting after each turn as its
 * answer's delay asks (capped at `maxDelayMs`). A turn is retried only when its request cannot have reached the
 * service (connection refused, DNS): a turn seen twice may move the dialogue on twice. Any other error ends the
 * conversation there; the turns after it are not asked. An abort of `ctx.signal` (the run stops) throws: a conversation
 * cut off half way is not scored, and is asked again from its first turn, as a new user, when the run is resumed.
 */
export async function askConversation(ctx: AskContext, c: Conversation, user: string, maxDelayMs: number): Promise<AskedConversation> {
  const turnCtx: AskContext = { ...ctx, retryOn: 'unsent' };
  const replies: AskResult[] = [];
  const waitedMs: number[] = [];
  for (const [i, turn] of c.turns.entries()) {
    const reply = await ask(turnCtx, { ...turn, username: user, guest: false });
    replies.push(reply);
    if (!reply.ok) break;
    const wait = i + 1 < c.turns.length ? turnDelayMs(reply, maxDelayMs) : 0;
    waitedMs.push(wait);
    if (wait > 0) await sleep(wait, ctx.signal);
  }
  return { user, replies, waitedMs };
}
