import { createHash } from 'node:crypto';
import { isCorrect, isJudged, type Outcome } from '../model/outcome.js';
import type { QuestionResult } from '../model/report.js';

/** What the history reads of each result. */
export type Observation = Pick<QuestionResult, 'id' | 'question' | 'language' | 'expected' | 'outcome'>;

/** 48 bits of sha256 over what makes a question the same question: its text, language and expectations. */
const questionHash = (o: Observation): number =>
  createHash('sha256').update(JSON.stringify([o.question, o.language, o.expected])).digest().readUIntBE(0, 6);

/**
 * Every question's history over a sequence of runs, in a small fixed state per question (about 30 bytes and its id,
 * in typed arrays), whatever the number of runs: the correctness and run of its last judged observation, where its
 * current failing streak began, whether it ever passed, how often its correctness flipped with nothing changed, and
 * a hash of the question as last judged. Runs are fed in time order, one observation at a time.
 */
export class QuestionHistory {
  readonly #slots = new Map<string, number>();
  readonly #services: string[] = [];
  #lastCorrect = new Int8Array(1024); // -1: never judged
  #lastRun = new Int32Array(1024);
  #streakStart = new Int32Array(1024); // -1: not failing
  #everPassed = new Uint8Array(1024);
  #flips = new Uint32Array(1024);
  #hash = new Float64Array(1024);

  /** Distinct question ids seen. */
  get size(): number {
    return this.#slots.size;
  }

  /** Starts the next run; `service` is its service identity hash. Returns the run's index. */
  startRun(service: string): number {
    this.#services.push(service);
    return this.#services.length - 1;
  }

  /**
   * One run's result for a question. Errors and unlabeled questions are not observations: they neither break nor
   * extend a streak. A flip counts only when the question (hash) and the service are those of its last observation.
   * Returns the question's slot and its correctness when last judged before this run (null: never).
   */
  observe(run: number, o: Observation): { slot: number; before: boolean | null } {
    const slot = this.#slotOf(o.id);
    const prev = this.#lastCorrect[slot]!;
    const before = prev < 0 ? null : prev === 1;
    if (!isJudged(o.outcome)) return { slot, before };
    const correct = isCorrect(o.outcome);
    const hash = questionHash(o);
    if (before !== null && before !== correct && this.#hash[slot] === hash && this.#services[this.#lastRun[slot]!] === this.#services[run]) this.#flips[slot]!++;
    if (correct) {
      this.#everPassed[slot] = 1;
      this.#streakStart[slot] = -1;
    } else if (before !== false) this.#streakStart[slot] = run;
    this.#lastCorrect[slot] = correct ? 1 : 0;
    this.#lastRun[slot] = run;
    this.#hash[slot] = hash;
    return { slot, before };
  }

  /** The first run of the current failing streak; -1 when the question is not failing. */
  failingSince = (slot: number): number => this.#streakStart[slot]!;
  everPassed = (slot: number): boolean => this.#everPassed[slot] === 1;
  flips = (slot: number): number => this.#flips[slot]!;

  /** Whether an outcome counts as correct when judged, null when it is not judged. */
  static correctness = (outcome: Outcome): boolean | null => (isJudged(outcome) ? isCorrect(outcome) : null);

  #slotOf(id: string): number {
    let slot = this.#slots.get(id);
    if (slot !== undefined) return slot;
    slot = this.#slots.size;
    this.#slots.set(id, slot);
    if (slot === this.#lastCorrect.length) this.#grow(slot * 2);
    this.#lastCorrect[slot] = -1;
    this.#lastRun[slot] = -1;
    this.#streakStart[slot] = -1;
    return slot;
  }

  #grow(size: number): void {
    const grow = <T extends Int8Array | Int32Array | Uint8Array | Uint32Array | Float64Array>(from: T, to: T): T => {
      to.set(from);
      return to;
    };
    this.#lastCorrect = grow(this.#lastCorrect, new Int8Array(size));
    this.#lastRun = grow(this.#lastRun, new Int32Array(size));
    this.#streakStart = grow(this.#streakStart, new Int32Array(size));
    this.#everPassed = grow(this.#everPassed, new Uint8Array(size));
    this.#flips = grow(this.#flips, new Uint32Array(size));
    this.#hash = grow(this.#hash, new Float64Array(size));
  }
}
