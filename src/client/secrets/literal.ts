/**
 * Needles longer than this are searched with Knuth-Morris-Pratt rather than the engine's indexOf: V8's and Node's
 * Boyer-Moore compare a periodic needle (`ZxZx...`) again at every shift in a periodic text, m x n steps, which for a
 * code of 5,000 characters is seconds a reply. Up to this length indexOf is faster, and its worst case still linear.
 */
const LONG = 64;

/** The KMP failure table: for each prefix of the needle, the length of its longest proper border. */
function borders(length: number, at: (i: number) => number): Int32Array {
  const table = new Int32Array(length);
  for (let i = 1, k = 0; i < length; i++) {
    while (k > 0 && at(i) !== at(k)) k = table[k - 1]!;
    if (at(i) === at(k)) k++;
    table[i] = k;
  }
  return table;
}

/**
 * Where the needle occurs in the haystack, overlapping occurrences too, in steps linear in the haystack: the first
 * only, or every one.
 */
function kmp(table: Int32Array, length: number, needleAt: (i: number) => number, size: number, hayAt: (i: number) => number, every: boolean): number[] {
  const found: number[] = [];
  for (let i = 0, k = 0; i < size; i++) {
    const c = hayAt(i);
    while (k > 0 && c !== needleAt(k)) k = table[k - 1]!;
    if (c === needleAt(k)) k++;
    if (k === length) {
      found.push(i - length + 1);
      if (!every) break;
      k = table[k - 1]!;
    }
  }
  return found;
}

/** A literal string, searched for in time linear in the text whatever its length. */
export class Literal {
  readonly #table: Int32Array | undefined;

  constructor(readonly text: string) {
    this.#table = text.length > LONG ? borders(text.length, (i) => text.charCodeAt(i)) : undefined;
  }

  /** Whether `haystack` holds the text. */
  in(haystack: string): boolean {
    return this.#search(haystack, false).length > 0;
  }

  /** Where the text starts in `haystack`, every time (overlapping too). */
  every(haystack: string): number[] {
    return this.#search(haystack, true);
  }

  #search(haystack: string, every: boolean): number[] {
    const text = this.text;
    if (this.#table !== undefined) return kmp(this.#table, text.length, (i) => text.charCodeAt(i), haystack.length, (i) => haystack.charCodeAt(i), every);
    const found: number[] = [];
    for (let i = haystack.indexOf(text); i >= 0; i = every ? haystack.indexOf(text, i + 1) : -1) found.push(i);
    return found;
  }
}

/** A literal byte sequence, searched for as Literal is. */
export class LiteralBytes {
  readonly #table: Int32Array | undefined;

  constructor(readonly bytes: Buffer) {
    this.#table = bytes.length > LONG ? borders(bytes.length, (i) => bytes[i]!) : undefined;
  }

  /** Where the bytes start in `haystack`: the first time only, or every time (overlapping too). */
  find(haystack: Buffer, every: boolean): number[] {
    const bytes = this.bytes;
    if (this.#table !== undefined) return kmp(this.#table, bytes.length, (i) => bytes[i]!, haystack.length, (i) => haystack[i]!, every);
    const found: number[] = [];
    for (let i = haystack.indexOf(bytes); i >= 0; i = every ? haystack.indexOf(bytes, i + 1) : -1) found.push(i);
    return found;
  }
}
