import { ask } from '../client/ask.js';
import type { AskResult } from '../model/ask-result.js';
import type { Question } from '../model/question.js';
import type { Judge } from './stages/judge.js';
import type { Asker, Kind, Put, Work } from './work.js';

/** One asking of a single question: `k` 0 for the first, 1... for the further ones of --repeat. */
export class QuestionWork implements Work {
  #asked: AskResult | undefined;

  constructor(
    readonly q: Question,
    readonly index: number,
    readonly k: number,
  ) {}

  async ask(a: Asker): Promise<void> {
    this.#asked = await ask(a.ctx, this.q);
    a.answered.push(this);
  }

  judge(judge: Judge, put: Put): void {
    put(this.index, this.k, judge.question(this.q, this.#asked!));
  }
}

/** A single question: a slot, asked once per asking of --repeat; each asking the journal holds is taken as it is. */
export const QUESTION: Kind<Question> = {
  slots: () => 1,
  check(q, c) {
    let toAsk = 0;
    for (let k = 0; k < c.repeat; k++) if (c.prior?.entry(q, k) === undefined) toAsk++;
    c.count(1, toAsk);
    c.vet(q);
    c.look(q);
  },
  plan(q, index, k, p) {
    const entry = p.prior?.entry(q, k);
    if (entry === undefined) return new QuestionWork(q, index, k);
    p.keep(index, k, entry);
    return undefined;
  },
};
