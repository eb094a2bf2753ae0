import { holdsMask } from '../client/secrets/secrets.js';
import type { Conversation, Question } from '../model/question.js';
import type { QuestionResult } from '../model/report.js';
import type { Matcher } from '../score/match.js';
import { replyOf } from '../score/reply.js';
import { toResult } from '../score/result.js';
import { printable } from '../util/json-lines.js';
import { WindowReader } from '../util/records.js';
import { plural } from '../util/text.js';
import { repeatKey, type JournalEntry } from './journal.js';
import type { JournalContents } from './journal-read.js';

/** Lines named one by one on stderr; the others are counted. */
const NAMED = 10;

/**
 * What a resumed run takes from its journal, trusting no line: a result is taken only for the question of the
 * dataset it names, at the dataset line it names, and only when `verify` finds it is that question's (its text,
 * tags and expectations) and its outcome is what its answers give. Every line not taken (dropped by readJournal, a
 * result that fails those checks, one for a question the dataset does not hold) is said once on stderr and counted
 * in the report (`run.resumed.dropped`); its question, when the dataset holds it, is asked again.
 */
export class PriorResults {
  #dropped: number;
  readonly #notes: string[] = [];
  #named = 0; // lines the notes name
  readonly #reader: WindowReader;

  constructor(
    readonly contents: JournalContents,
    /** The journal's path, for messages. */
    readonly path: string,
    readonly rerunErrors: boolean,
    /** Why a journaled result is not the question's, or undefined when it is. */
    readonly verify: (q: Question, r: QuestionResult) => string | undefined = () => undefined,
  ) {
    this.#reader = new WindowReader(path);
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
    const why = entry.seen ? undefined : this.#check(q, entry);
    entry.seen = true;
    if (why !== undefined) {
      map.delete(key);
      this.#dropped++;
      this.#note(`${entry.journalLine}`, `the result of "${printable(q.id, 80)}" ${why}: dropped, the question is asked again`);
      return undefined;
    }
    return this.rerunErrors && entry.error ? undefined : entry;
  }

  /**
   * A conversation's journaled turns, taken only whole, as one asking journaled them (its lines one after the other):
   * one cut off half way, or torn by a crash, is asked again from its first turn.
   */
  conversation(c: Conversation): JournalEntry[] | undefined {
    const entries = c.turns.map((turn) => this.entry(turn)); // every turn looked up (see checkUnknown)
    const whole = entries.every((entry, t): entry is JournalEntry => entry !== undefined && (t === 0 || entries[t - 1]!.offset + entries[t - 1]!.length + 1 === entry.offset));
    return whole ? entries : undefined;
  }

  /** Stops reading the journal (reopened should a lookup need it again). */
  close(): void {
    this.#reader.close();
  }

  /** Why a journaled result is not `q`'s, or undefined: read once, when first looked up. */
  #check(q: Question, entry: JournalEntry): string | undefined {
    if (entry.line !== q.line) return `is for line ${entry.line} of the dataset, where that question is at line ${q.line}`;
    let result: QuestionResult & { run?: string; repeat?: number };
    try {
      result = JSON.parse(this.#reader.read(entry.offset, entry.length).toString('utf8')) as typeof result;
    } catch {
      return 'cannot be read again (the journal changed while it was read)';
    }
    delete result.run;
    delete result.repeat;
    return this.verify(q, result);
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

/** JSON with the keys of every object sorted: two values written in another key order compare equal. */
const canonical = (value: unknown): string =>
  JSON.stringify(value, (_, v: unknown) => (typeof v === 'object' && v !== null && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1))) : v));

/**
 * Why a journaled result is not question `q`'s as this run would have written it, or undefined: its text, language,
 * tags and expectations must be the dataset's, and its outcome, top-1 and rank what its answers give, judged again
 * as the run judges (toResult). Answers masked because the service echoed a secret were judged before the
 * masking, so only their question is checked; a turn skipped after an error has no answers to judge.
 */
export function journaledAs(q: Question, r: QuestionResult, defaultLanguage: string, matcher: Matcher): string | undefined {
  const again = toResult(q, replyOf(r), defaultLanguage, matcher);
  if (r.question !== again.question) return "is for another question text than the dataset's";
  if (r.language !== again.language || canonical(r.tags) !== canonical(again.tags)) return "has another language or other tags than the dataset's row";
  if (canonical(r.expected) !== canonical(again.expected)) return "expects other answers than the dataset's row";
  if (r.outcome === 'skipped') return r.conversation ? undefined : 'is "skipped", which only a turn of a conversation can be';
  if (holdsMask(JSON.stringify(r.answers))) return undefined;
  if (r.outcome !== again.outcome || r.top1Index !== again.top1Index || (r.rank ?? null) !== again.rank) {
    return `is "${printable(r.outcome, 40)}", where its answers give "${again.outcome}" (judged again)`;
  }
  return undefined;
}
