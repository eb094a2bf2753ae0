import { stat } from 'node:fs/promises';
import { ConfigError } from '../../errors.js';
import type { QuestionResult } from '../../model/report.js';
import type { ResultSource } from '../../model/source.js';
import { journalHeader } from '../head.js';
import { headerDifferences, journalPath, journalTail, JournalWriter, type JournalEntry } from '../journal.js';
import { RepeatStore, withRepeats } from '../repeats.js';
import { journalFailure } from '../stop-reasons.js';
import { journalStore, memoryStore, type ResultStore } from '../store.js';
import type { Plan } from './plan.js';

/** Where asking `k` of each question is kept: the results (k = 0), or the further askings of --repeat. */
type Slots = Pick<ResultStore, 'put' | 'keep'>;

/**
 * Stage 4, record: each result as it is judged, appended to the journal (new, or the resumed run's) and kept in the
 * store by its dataset index (with a journal, only where its line sits); the further askings of --repeat in a store
 * of their own. Results the journal holds already are kept as they are (`keep`).
 */
export class Recorder {
  /** Results of the run's first askings taken from the journal. */
  fromJournal = 0;
  #error: Error | undefined;
  readonly #slots: Slots[];

  private constructor(
    /** When the run started asking (its journal's header says so). */
    readonly startedAt: Date,
    /** The run's tag on each journal line (a resumed run goes on with its journal's). */
    private readonly run: string,
    private readonly journal: JournalWriter | undefined,
    readonly store: ResultStore,
    readonly repeats: RepeatStore | undefined,
  ) {
    this.#slots = [store];
    for (let k = 1; repeats && k < repeats.times; k++) this.#slots.push(repeats.asking(k));
  }

  /**
   * Opens the record of a planned run: resumes its journal, refused when the run is not the journal's (said with each
   * difference), or starts one, refused where another run's journal is. `stop` is told should a write fail.
   */
  static async open(plan: Plan, stop: (reason: Error) => void): Promise<Recorder> {
    const { o, prior, total } = plan;
    const startedAt = new Date();
    const header = journalHeader(plan.dataset, o, startedAt);
    let journal: JournalWriter | undefined;
    if (prior) {
      const diffs = headerDifferences(prior.contents.header, header);
      if (diffs.length > 0) throw new ConfigError(`cannot resume ${o.journalDir}: ${diffs.join('; ')}`);
      for (const note of prior.notes()) o.onWarning?.(note);
      journal = await JournalWriter.resume(o.journalDir!, prior.contents.validBytes, stop);
    } else if (o.journalDir !== undefined) {
      if (await stat(journalPath(o.journalDir)).then(() => true, () => false)) {
        throw new ConfigError(`${o.journalDir} holds the journal of another run (${journalPath(o.journalDir)}): resume it, or journal this run elsewhere`);
      }
      journal = await JournalWriter.create(o.journalDir, header, stop);
    }
    const store = journal ? journalStore(journal.path, total) : memoryStore(total);
    const repeats = o.repeat > 1 ? new RepeatStore(o.repeat, total, journal?.path) : undefined;
    // a resumed run started when its journal did: trend orders nights by it, and its duration spans the pause
    const started = prior ? new Date(prior.contents.header.startedAt) : startedAt;
    return new Recorder(Number.isNaN(started.getTime()) ? startedAt : started, prior?.contents.header.run ?? header.run, journal, store, repeats);
  }

  /** Records asking `k` of question `index`. */
  readonly put = (index: number, k: number, result: QuestionResult): void => {
    // what the service sent is masked already (src/client/ask.ts, src/score/result.ts); the question as written
    this.#slots[k]!.put(index, result, this.journal?.append(JSON.stringify(result), journalTail(this.run, k)));
  };

  /** Keeps asking `k` of question `index` as the journal holds it (a resumed run). */
  readonly keep = (index: number, k: number, entry: JournalEntry): void => {
    this.#slots[k]!.keep(index, entry);
    if (k === 0) this.fromJournal++;
  };

  /** Questions with a result. */
  get finished(): number {
    return this.store.count;
  }

  /** Closes the journal; an error of any write is kept for `failure`. */
  async close(): Promise<void> {
    await this.journal?.close().catch((error: Error) => (this.#error = error));
  }

  /** The journal could not be written: the results that did not reach it dropped, and what to do, said (see journalFailure). */
  async failure(resumeDir: string): Promise<Error | undefined> {
    return this.#error && journalFailure(this.#error, this.journal!.path, resumeDir, this.store);
  }

  /** The results in dataset order, each with its further askings when the run repeats them; read again at every pass. */
  results(): ResultSource {
    return this.repeats ? withRepeats(this.store.source(), this.repeats) : this.store.source();
  }
}
