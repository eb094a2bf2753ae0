import type { Asking, QuestionResult } from '../model/report.js';
import type { ResultSource } from '../model/source.js';
import { askingOf, repeatsOf } from '../score/repeats.js';
import { RecordSource } from '../util/records.js';
import type { JournalEntry } from './journal.js';
import type { ResultStore } from './store.js';

/**
 * Where a --repeat run keeps the further askings of each question (slot: question index × (times − 1) + k − 1).
 * With a journal only where each line sits (12 bytes an asking); without one, the top-1 of each asking.
 */
export class RepeatStore {
  readonly #offsets: Float64Array;
  readonly #lengths: Uint32Array;
  readonly #askings: (Asking | undefined)[] = [];
  readonly #lines: Float64Array;
  readonly #ids: string[] = [];
  #count = 0;

  /** `times`: askings per question (--repeat); `journal`: its path, when the run keeps one. */
  constructor(
    readonly times: number,
    readonly total: number,
    readonly journal?: string,
  ) {
    const slots = journal === undefined ? 0 : total * (times - 1);
    this.#offsets = new Float64Array(slots).fill(Number.NaN);
    this.#lengths = new Uint32Array(slots);
    this.#lines = new Float64Array(journal === undefined ? total : 0).fill(Number.NaN);
  }

  /** Further askings made (or found in the journal). */
  get count(): number {
    return this.#count;
  }

  /** Further askings not made. */
  get missing(): number {
    return this.total * (this.times - 1) - this.#count;
  }

  /** Asking `k` (1: the second) of question `index` finished; `at` is where its journal line sits, when there is a journal. */
  put(index: number, k: number, result: QuestionResult, at?: Pick<JournalEntry, 'offset' | 'length'>): void {
    if (this.journal !== undefined) {
      if (!at) throw new Error('RepeatStore.put needs the journal offset');
      this.keep(index, k, at);
      return;
    }
    const slot = index * (this.times - 1) + k - 1;
    if (this.#askings[slot] === undefined) this.#count++;
    this.#askings[slot] = askingOf(result);
    this.#lines[index] = result.line;
    this.#ids[index] = result.id;
  }

  /** Asking `k` of question `index` sits in the journal already (a resumed run). */
  keep(index: number, k: number, at: Pick<JournalEntry, 'offset' | 'length'>): void {
    const slot = index * (this.times - 1) + k - 1;
    if (Number.isNaN(this.#offsets[slot]!)) this.#count++;
    this.#offsets[slot] = at.offset;
    this.#lengths[slot] = at.length;
  }

  /** Asking `k` of every question, kept as a store of results is (see ResultStore). */
  asking(k: number): Pick<ResultStore, 'put' | 'keep'> {
    return { put: (index, result, at) => this.put(index, k, result, at), keep: (index, at) => this.keep(index, k, at) };
  }

  /** The further askings of every question that has any, in dataset order, with the question's dataset line and id. */
  *perQuestion(): Generator<{ line: number; id: string; others: Asking[] }> {
    const per = this.times - 1;
    const records = this.journal === undefined ? undefined : new RecordSource<QuestionResult>([this.journal], this.#offsets, this.#lengths, this.#count)[Symbol.iterator]();
    try {
      for (let i = 0; i < this.total; i++) {
        const others: Asking[] = [];
        let line = this.#lines[i] ?? Number.NaN;
        let id = this.#ids[i] ?? '';
        for (let slot = i * per; slot < (i + 1) * per; slot++) {
          if (records) {
            if (Number.isNaN(this.#offsets[slot]!)) continue;
            const r = records.next().value as QuestionResult;
            line = r.line;
            id = r.id;
            others.push(askingOf(r));
          } else {
            const asking = this.#askings[slot];
            if (asking !== undefined) others.push(asking);
          }
        }
        if (others.length > 0) yield { line, id, others };
      }
    } finally {
      records?.return?.();
    }
  }
}

/**
 * The run's results (the first askings), each with its `repeats`: read back at every pass, the two in step by dataset
 * line (and id: an asking of another question at the same line, should the dataset have changed between passes, is
 * not taken for one of this question's).
 */
export function withRepeats(results: ResultSource, store: RepeatStore): ResultSource {
  return {
    count: results.count,
    *[Symbol.iterator]() {
      const repeats = store.perQuestion();
      let next = repeats.next();
      try {
        for (const r of results) {
          while (!next.done && next.value.line < r.line) next = repeats.next();
          const others = !next.done && next.value.line === r.line && next.value.id === r.id ? next.value.others : [];
          yield { ...r, repeats: repeatsOf(r, others) };
        }
      } finally {
        repeats.return(undefined);
      }
    },
  };
}
