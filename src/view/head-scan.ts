/**
 * Where the head of a report.json ends (everything before its `results`), found in its first bytes in any layout:
 * the one answer-eval writes, JSON.stringify's and jq's, minified. A scan of JSON's structure byte by byte (strings,
 * escapes and nesting followed), so `"results"` nested deeper (`gates.results`) or inside a string is not taken
 * for it. Pure and incremental: `feed` each chunk as it is read.
 */
export type HeadEnd =
  /** The head is the bytes before `end` (a comma), closed by adding `}`. */
  | { kind: 'before-results'; end: number }
  /** The report has no results: the whole object ends at `end` (exclusive). */
  | { kind: 'closed'; end: number }
  /** Not a report's layout: `why`. */
  | { kind: 'not-head-first'; why: string };

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const KEY = Buffer.from('results');

const isBlank = (b: number): boolean => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;

export class HeadScanner {
  private at = 0;
  private depth = 0;
  private begun = false;
  private inString = false;
  private escaped = false;
  /** At depth 1, after `{` or `,`: the next string is a key. */
  private keyNext = false;
  /** Reading a top-level key: how much of it matches `results` (-1: it does not). */
  private keyMatch = -1;
  private inKey = false;
  private lastComma = -1;

  /** Scans the next bytes of the file; the end of the head once found (later calls are not expected). */
  feed(bytes: Uint8Array): HeadEnd | undefined {
    for (let i = 0; i < bytes.length; i++, this.at++) {
      const b = bytes[i]!;
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (b === BACKSLASH) this.escaped = true;
        else if (b === QUOTE) {
          this.inString = false;
          if (this.inKey && this.keyMatch === KEY.length) {
            return this.lastComma < 0 ? { kind: 'not-head-first', why: 'its results come first, before the run' } : { kind: 'before-results', end: this.lastComma };
          }
          this.inKey = false;
          continue;
        }
        if (this.inKey && this.keyMatch >= 0) this.keyMatch = !this.escaped && b === KEY[this.keyMatch] ? this.keyMatch + 1 : -1;
        continue;
      }
      if (isBlank(b)) continue;
      if (!this.begun) {
        if (b !== 0x7b) return { kind: 'not-head-first', why: 'it is not a JSON object' };
        this.begun = true;
      }
      if (b === QUOTE) {
        this.inString = true;
        this.inKey = this.depth === 1 && this.keyNext;
        this.keyMatch = 0;
        this.keyNext = false;
      } else if (b === 0x7b || b === 0x5b) {
        this.depth++;
        this.keyNext = this.depth === 1;
      } else if (b === 0x7d || b === 0x5d) {
        this.depth--;
        if (this.depth === 0) return { kind: 'closed', end: this.at + 1 };
      } else if (b === 0x2c && this.depth === 1) {
        this.lastComma = this.at;
        this.keyNext = true;
      }
    }
    return undefined;
  }
}
