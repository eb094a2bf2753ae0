import type { QuestionResult } from '../model/report.js';
import { arraySource, type ResultSource } from '../model/source.js';
import { JournalSource, type JournalEntry } from './journal.js';

/**
 * Where a run keeps its results, by dataset index. With a journal only the offset of each result's line is
 * kept (12 bytes a question), so memory does not grow with the answers; without one, the results themselves.
 */
export interface ResultStore {
  /** Question `index` finished; `at` is where its journal line sits, when there is a journal. */
  put(index: number, result: QuestionResult, at?: Pick<JournalEntry, 'offset' | 'length'>): void;
  /** Question `index` was answered by an earlier run and sits in the journal (a resumed run). */
  keep(index: number, at: Pick<JournalEntry, 'offset' | 'length'>): void;
  readonly count: number;
  /** Forgets the results whose journal line ends past `bytes` (a write failed there: only the start reached the disk). */
  keepWithin?(bytes: number): void;
  /** The results in dataset order, read again at every pass. */
  source(): ResultSource;
}

export function memoryStore(total: number): ResultStore {
  const results = new Array<QuestionResult | undefined>(total);
  let count = 0;
  return {
    put(index, result) {
      if (results[index] === undefined) count++;
      results[index] = result;
    },
    keep() {
      throw new Error('a resumed run keeps its results in the journal');
    },
    get count() {
      return count;
    },
    source: () => arraySource(results.filter((r): r is QuestionResult => r !== undefined)),
  };
}

export function journalStore(path: string, total: number): ResultStore {
  const offsets = new Float64Array(total).fill(Number.NaN);
  const lengths = new Uint32Array(total);
  let count = 0;
  const keep = (index: number, at: Pick<JournalEntry, 'offset' | 'length'>): void => {
    if (Number.isNaN(offsets[index]!)) count++;
    offsets[index] = at.offset;
    lengths[index] = at.length;
  };
  return {
    put(index, _result, at) {
      if (!at) throw new Error('journalStore.put needs the journal offset');
      keep(index, at);
    },
    keep,
    keepWithin(bytes) {
      for (let i = 0; i < total; i++) {
        if (!Number.isNaN(offsets[i]!) && offsets[i]! + lengths[i]! + 1 > bytes) {
          offsets[i] = Number.NaN;
          count--;
        }
      }
    },
    get count() {
      return count;
    },
    source: () => new JournalSource([path], offsets, lengths, count),
  };
}
