import type { AskResult } from '../../model/ask-result.js';
import type { Aliases } from '../../model/expectations.js';
import type { Conversation, Question } from '../../model/question.js';
import type { QuestionResult } from '../../model/report.js';
import { scoreConversation, type AskedConversation } from '../../score/conversation.js';
import { compileMatcher, type Matcher } from '../../score/match.js';
import { toResult } from '../../score/result.js';
import { journaledAs } from '../prior.js';

/** Compiled matchers kept at most: each may hold its regular expressions' DFA (src/model/regex.ts). */
const MATCHERS = 1_000;

/**
 * Stage 3, judge: a reply against its question's expectations (src/score), as the run judges it, and a journaled result
 * judged again before a resumed run takes it. Rows with the same expectations share one compiled matcher (a dataset
 * has few distinct ones per entry).
 */
export class Judge {
  readonly #matchers = new Map<string, Matcher>();

  constructor(
    /** The run's --language, for questions without their own. */
    readonly language: string,
    /** --aliases, applied to expected sequence numbers. */
    readonly aliases: Aliases | undefined,
  ) {}

  /** The matcher of a question's expectations. */
  readonly matcherOf = (q: Question): Matcher => {
    const key = JSON.stringify(q.expected);
    let m = this.#matchers.get(key);
    if (m === undefined) {
      if (this.#matchers.size >= MATCHERS) this.#matchers.clear();
      this.#matchers.set(key, (m = compileMatcher(q.expected, this.aliases)));
    }
    return m;
  };

  /** A single question's result. */
  question(q: Question, asked: AskResult): QuestionResult {
    return toResult(q, asked, this.language, this.matcherOf(q));
  }

  /** A conversation's results, one per turn in order (see scoreConversation). */
  conversation(c: Conversation, asked: AskedConversation): QuestionResult[] {
    return scoreConversation(c, asked, this.language, this.matcherOf);
  }

  /** Why a journaled result is not question `q`'s as this run would have written it, or undefined (see journaledAs). */
  readonly journaled = (q: Question, r: QuestionResult): string | undefined => journaledAs(q, r, this.language, this.matcherOf(q));
}
