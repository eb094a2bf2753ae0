import { readLanguage } from '../model/language.js';
import { foldText } from './normalise.js';
import type { LogRow } from './read.js';
import { noPii, scrub, type PiiCounts } from './scrub.js';

/** A row's question as it is written (scrubbed) and compared (folded), with its language. */
export interface Asked {
  /** Scrubbed (unless --keep-pii), whitespace and control characters as single spaces: a variant as it may be written. */
  text: string;
  folded: string;
  /** Its language's number (0: not known) in Languages. */
  language: number;
}

/** Control characters and runs of whitespace, which no question needs: a variant is written on one line. */
const SPACES = /[\s\p{Cc}]+/gu;

/** The languages of a log, numbered (0: not known), as ISO 639-1 codes; the values that are none, counted. */
export class Languages {
  readonly codes: string[] = [''];
  readonly #numbers = new Map<string, number>([['', 0]]);
  /** What each value written reads as (a bounded cache: a log writes its few languages again and again). */
  readonly #read = new Map<string, number>();
  /** Rows whose language is no ISO 639-1 code (taken as not known), and the first of them. */
  unread = 0;
  firstUnread?: { line: number; value: string };

  constructor(
    /** The language of a row without one (--language), as a code. */
    readonly fallback: string | undefined,
  ) {}

  /** The number of a row's language: its own, else the fallback; 0 when it is not known. */
  of(value: string | undefined, line: number): number {
    if (value === undefined) return this.fallback === undefined ? 0 : this.#number(this.fallback);
    let n = this.#read.get(value);
    if (n === undefined) {
      const read = readLanguage(value);
      n = 'code' in read ? this.#number(read.code) : -1;
      if (this.#read.size < 1000) this.#read.set(value, n);
    }
    if (n >= 0) return n;
    this.unread++;
    this.firstUnread ??= { line, value };
    return 0;
  }

  #number(code: string): number {
    let n = this.#numbers.get(code);
    if (n === undefined) {
      n = this.codes.push(code) - 1;
      this.#numbers.set(code, n);
    }
    return n;
  }
}

/** A row's question scrubbed (into `pii`, unless `keepPii`) and folded; its folded text may be empty (punctuation only). */
export function askedOf(row: LogRow, languages: Languages, keepPii: boolean, pii: PiiCounts = noPii()): Asked {
  const language = languages.of(row.language, row.line);
  const text = (keepPii ? row.question : scrub(row.question, pii)).replace(SPACES, ' ').trim();
  return { text, folded: foldText(text, languages.codes[language] || undefined), language };
}
