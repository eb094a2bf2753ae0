import { ask, type AskContext } from '../client/ask.js';
import { sleep } from '../client/sleep.js';
import { ConfigError } from '../errors.js';
import { topIndex } from '../model/answer.js';
import type { AskResult } from '../model/ask-result.js';
import type { Conversation, Question } from '../model/question.js';
import type { AskedConversation } from '../score/conversation.js';
import type { Judge } from './stages/judge.js';
import type { Asker, Kind, Put, Work } from './work.js';
import { quote } from '../model/quote.js';


/** The user a conversation is asked as: its own username, or a fresh one per run and conversation. */
export const conversationUser = (c: Conversation, run: string): string => c.username ?? `answer-eval-${run}-${c.id}`;

/** A turn as it is sent: as the conversation's user, never as a guest. */
const asTurn = (turn: Question, user: string): Question => ({ ...turn, username: user, guest: false });

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
    const reply = await ask(turnCtx, asTurn(turn, user));
    replies.push(reply);
    if (!reply.ok) break;
    const wait = i + 1 < c.turns.length ? turnDelayMs(reply, maxDelayMs) : 0;
    waitedMs.push(wait);
    if (wait > 0) await sleep(wait, ctx.signal);
  }
  return { user, replies, waitedMs };
}

/** A whole conversation: asked once, from its first turn, its turns judged and recorded together once it ends. */
export class ConversationWork implements Work {
  #asked: AskedConversation | undefined;

  constructor(
    readonly c: Conversation,
    readonly index: number,
  ) {}

  async ask(a: Asker): Promise<void> {
    this.#asked = await askConversation(a.ctx, this.c, conversationUser(this.c, a.runName), a.maxTurnDelayMs);
    a.answered.push(this);
  }

  judge(judge: Judge, put: Put): void {
    judge.conversation(this.c, this.#asked!).forEach((result, t) => put(this.index + t, 0, result));
  }
}

/**
 * A conversation: a slot per turn, asked once per run as a new user (--repeat refuses it), and taken from the journal
 * only whole (see PriorResults.conversation).
 */
export const CONVERSATION: Kind<Conversation> = {
  slots: (c) => c.turns.length,
  check(c, checks) {
    for (const turn of c.turns) checks.look(turn);
    if (checks.repeat > 1) {
      checks.refuse(
        new ConfigError(
          `--repeat ${checks.repeat} cannot ask conversations (${checks.file}:${c.line}: conversation ${quote(c.id)}): a conversation is asked once per run, ` +
            'as a new user each time; run the dataset again instead, or --repeat a dataset of single questions',
        ),
      );
    }
    checks.count(c.turns.length, checks.prior?.conversation(c) === undefined ? c.turns.length : 0);
    const user = conversationUser(c, checks.runName);
    for (const turn of c.turns) checks.vet(asTurn(turn, user));
  },
  plan(c, index, _k, p) {
    const entries = p.prior?.conversation(c); // --repeat was refused: k is 0
    if (entries === undefined) return new ConversationWork(c, index);
    entries.forEach((entry, t) => p.keep(index + t, 0, entry));
    return undefined;
  },
};
