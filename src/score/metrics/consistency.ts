import type { Consistency } from '../../model/metrics.js';
import type { QuestionResult } from '../../model/report.js';
import { askingOf } from '../repeats.js';
import { wilson } from './wilson.js';

const EXAMPLES = 50;

/** Counts the questions asked more than once whose top-1 stayed the same (`result.repeats`). */
export class ConsistencyCounter {
  #repeat = 0;
  #consistent = 0;
  #n = 0;
  #inconsistent: Consistency['inconsistent'] = [];

  add(r: QuestionResult): void {
    if (!r.repeats) return;
    this.#repeat = Math.max(this.#repeat, r.repeats.others.length + 1);
    if (r.repeats.consistent === null) return;
    this.#n++;
    if (r.repeats.consistent) this.#consistent++;
    else if (this.#inconsistent.length < EXAMPLES) {
      const top1 = [askingOf(r), ...r.repeats.others].map((a) => (a.error ? null : a.sequence));
      this.#inconsistent.push({ id: r.id, top1 });
    }
  }

  /** Undefined when no question was asked more than once. */
  result(): Consistency | undefined {
    if (this.#repeat === 0) return undefined;
    return { repeat: this.#repeat, interval: wilson(this.#consistent, this.#n), inconsistent: this.#inconsistent };
  }
}
