import type { AskContext } from '../client/ask.js';
import type { DatasetItem, Question } from '../model/question.js';
import type { QuestionResult } from '../model/report.js';
import type { Backlog } from './backlog.js';
import type { JournalEntry } from './journal.js';
import type { PriorResults } from './prior.js';
import type { Judge } from './stages/judge.js';

/**
 * What the run asks, a slot of the pool each: one asking of a question, or a whole conversation. The stages never
 * look inside: the ask stage calls `ask`, the judge stage `judge`; each kind of item (src/run/question.ts,
 * src/run/conversation.ts; src/run/kinds.ts tells them apart) knows how it is asked and judged.
 */
export interface Work {
  /** Asks it; once answered, it waits in `a.answered` to be judged. */
  ask(a: Asker): Promise<void>;
  /** Judges what came back: each result is put at its dataset index and asking. */
  judge(judge: Judge, put: Put): void;
}

/** How the ask stage asks: the client's context, the run's name for the users of its conversations, and where an answer waits. */
export interface Asker {
  readonly ctx: AskContext;
  /** In the user name of each conversation without its own (a resumed run is a new one). */
  readonly runName: string;
  readonly maxTurnDelayMs: number;
  /** Answered work, judged and recorded on the loop's next turn (its slot is free at once). */
  readonly answered: Backlog<Work>;
}

/** Records the result of question `index` of the run (in dataset order), asking `k` (0: the first; 1...: --repeat's). */
export type Put = (index: number, k: number, result: QuestionResult) => void;

/** What a kind of item sees in the check (pass 1): nothing is sent yet, and every problem is found before anything is. */
export interface Checks {
  readonly repeat: number;
  readonly runName: string;
  /** The dataset's name, for messages. */
  readonly file: string;
  /** The journal being resumed. */
  readonly prior: PriorResults | undefined;
  /** The item holds `slots` questions of the run, `toAsk` askings of which the journal lacks. */
  count(slots: number, toAsk: number): void;
  /** A question as it will be sent: the first whose request cannot be built is refused after the pass. */
  vet(q: Question): void;
  /** A question as the dataset writes it: its expectations against the knowledge base, its text for the run's secrets. */
  look(q: Question): void;
  /** Refuses the run once the pass is over (the first refusal, or request that cannot be built, is said). */
  refuse(error: Error): void;
}

/** What a kind of item sees in the plan (pass 2): what the journal holds, and where a result taken from it is kept. */
export interface Planning {
  readonly prior: PriorResults | undefined;
  keep(index: number, k: number, entry: JournalEntry): void;
}

/** One kind of dataset item, as each stage of the run needs it. */
export interface Kind<I extends DatasetItem> {
  /** Questions it holds: slots of the run's results, from its index on. */
  slots(item: I): number;
  /** Pass 1: counts and checks it. */
  check(item: I, checks: Checks): void;
  /** Pass 2: what of asking `k` is still to ask, at dataset index `index`; what the journal holds is kept instead. */
  plan(item: I, index: number, k: number, planning: Planning): Work | undefined;
}
