import type { Question } from '../model/question.js';
import { printable } from '../util/json-lines.js';
import { plural } from '../util/text.js';
import { repeatKey, type JournalEntry } from './journal.js';
import type { JournalContents } from './journal-read.js';

/** Lines named one by one on stderr; the others are counted. */
const NAMED = 10;

/**
 * What a resumed run takes from its journal, trusting no line: a result is taken only for the question of the
 * dataset it names, at the dataset line it names. Every line not taken (dropped by readJournal, a result whose
 * dataset line differs, one for a question the dataset does not hold) is said once on stderr and counted in the
 * report (`run.resumed.dropped`); its question, when the dataset holds it, is asked again.
 */
export class PriorResults {
  #dropped: number;
  readonly #notes: string[] = [];
  #named = 0; // lines the notes name

  constructor(
    readonly contents: JournalContents,
    /** The journal's path, for messages. */
    readonly path: string,
    readonly rerunErrors: boolean,
  ) {
    this.#dropped = contents.droppedCount;
    for (const d of contents.dropped) this.#note(d.to === undefined ? `${d.line}` : `${d.line}-${d.to}`, `${d.why}: dropped`, (d.to ?? d.line) - d.line + 1);
  }

  /** Lines not taken so far. */
  get dropped(): number {
    return this.#dropped;
  }

  /**
   * The journaled asking `k` of a question (0: the first), unless it ended in error and errors are rerun. A result
   * whose dataset line is not the question's is dropped (once, said) and the question asked again.
   */
  entry(q: Question, k = 0): JournalEntry | undefined {
    const map = k === 0 ? this.contents.results : this.contents.repeats;
    const key = k === 0 ? q.id : repeatKey(q.id, k);
    const entry = map.get(key);
    if (entry === undefined) return undefined;
    entry.seen = true;
    if (entry.line !== q.line) {
      map.delete(key);
      this.#dropped++;
      this.#note(`${entry.journalLine}`, `the result of "${printable(q.id, 80)}" is for line ${entry.line} of the dataset, where that question is at line ${q.line}: dropped, the question is asked again`);
      return undefined;
    }
    return this.rerunErrors && entry.error ? undefined : entry;
  }

  /** After every question was looked up: the results of questions the dataset (or this shard) does not hold. */
  checkUnknown(): void {
    for (const [map, idOf] of [
      [this.contents.results, (key: string) => key],
      [this.contents.repeats, (key: string) => key.slice(key.indexOf('\u0000') + 1)],
    ] as const) {
      for (const [key, entry] of map) {
        if (entry.seen) continue;
        this.#dropped++;
        this.#note(`${entry.journalLine}`, `a result for "${printable(idOf(key), 80)}", which this run does not ask${map === this.contents.repeats ? ' (not so many times)' : ''}: ignored`);
      }
    }
  }

  /** What is said on stderr, once: each line not taken (the first few), then how many in all. */
  notes(): string[] {
    if (this.#dropped === 0) return [];
    const more = this.#dropped - this.#named;
    return [
      ...this.#notes,
      `${this.path}: ${plural(this.#dropped, 'line')} not taken${more > 0 ? ` (${more} not named above)` : ''}; every question of this run without a result taken is asked again`,
    ];
  }

  #note(line: string, why: string, lines = 1): void {
    if (this.#notes.length >= NAMED) return;
    this.#notes.push(`${this.path}:${line}: ${why}`);
    this.#named += lines;
  }
}
