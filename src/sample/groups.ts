/**
 * The most distinct questions sampled from one log: beyond V8's largest Map (2^24 entries) it could not be counted,
 * and at some 150 bytes a question (its text, its counts) 5 million take most of a gigabyte.
 */
export const MAX_DISTINCT = 5_000_000;

/** How many lines of a group are kept, to say where it came from. */
export const SOURCE_LINES = 3;

/**
 * Questions that are the same once folded (foldText) in the same language: one group each, with how many times it
 * was asked and its first lines. Numbers live in typed arrays, a group's text once (the map's key): memory is about
 * the texts themselves, whatever the number of lines.
 */
export class Groups {
  /** A map per language (index: the language's number, 0 when unknown): text → group. */
  readonly #maps: Map<string, number>[] = [];
  readonly texts: string[] = [];
  count = new Int32Array(1024);
  /** The first SOURCE_LINES lines of each group (0: none). */
  lines = new Int32Array(SOURCE_LINES * 1024);
  language = new Uint16Array(1024);
  /** The --stratify value of the group's first line that has one (-1: none). */
  stratum = new Int32Array(1024).fill(-1);
  size = 0;

  /** The group of `text` in `language`, -1 when there is none. */
  find(text: string, language: number): number {
    return this.#maps[language]?.get(text) ?? -1;
  }

  /** Counts one asking of `text` at `line`; returns its group. Throws a RangeError past MAX_DISTINCT (the caller says why). */
  add(text: string, language: number, stratum: number, line: number): number {
    const map = (this.#maps[language] ??= new Map());
    let g = map.get(text);
    if (g === undefined) {
      if (this.size >= MAX_DISTINCT) throw new RangeError('too many distinct questions');
      g = this.size++;
      if (g === this.count.length) this.#grow();
      map.set(text, g);
      this.texts.push(text);
      this.language[g] = language;
    }
    this.count[g]!++;
    if (this.stratum[g] === -1 && stratum >= 0) this.stratum[g] = stratum;
    const at = g * SOURCE_LINES;
    for (let k = 0; k < SOURCE_LINES; k++) {
      if (this.lines[at + k] !== 0) continue;
      this.lines[at + k] = line;
      break;
    }
    return g;
  }

  /** The group's first lines. */
  linesOf(g: number): number[] {
    return [...this.lines.subarray(g * SOURCE_LINES, (g + 1) * SOURCE_LINES)].filter((l) => l !== 0);
  }

  #grow(): void {
    const grown = <T extends Int32Array | Uint16Array>(a: T, make: (n: number) => T): T => {
      const b = make(a.length * 2);
      b.set(a);
      return b;
    };
    this.count = grown(this.count, (n) => new Int32Array(n));
    this.lines = grown(this.lines, (n) => new Int32Array(n));
    this.language = grown(this.language, (n) => new Uint16Array(n));
    const stratum = new Int32Array(this.stratum.length * 2).fill(-1);
    stratum.set(this.stratum);
    this.stratum = stratum;
  }
}
