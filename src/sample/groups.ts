/**
 * The most distinct questions sampled from one log: past it, their texts alone take most of a gigabyte, and the
 * near-repeat index counts them in 25 bits.
 */
export const MAX_DISTINCT = 5_000_000;

const EMPTY = -1;

/**
 * Questions that are the same once folded (foldText) in the same language: one group each, with how many times it
 * was asked and its first line. The texts are kept as UTF-8 in one growing buffer and found by an open-addressing
 * table of group numbers: some 60 bytes a question beside its text, outside the JavaScript heap, where a Map of
 * strings takes twice that and leaves the collector hundreds of thousands of objects to walk.
 */
export class Groups {
  #bytes: Buffer = Buffer.allocUnsafe(1 << 20);
  #used = 0;
  /** Where each group's text starts in #bytes; its end is the next one's start (one more entry than groups). */
  #start = new Int32Array(1025);
  #hash = new Int32Array(1024);
  /** Open addressing: a slot holds a group, or EMPTY; twice as many slots as groups at least. Dropped by `counted`. */
  #slots: Int32Array | undefined = new Int32Array(2048).fill(EMPTY);
  #scratch: Buffer = Buffer.allocUnsafe(4096);
  count = new Int32Array(1024);
  /** The line each group was first asked on. */
  first = new Int32Array(1024);
  language = new Uint16Array(1024);
  /** The --stratify value of the group's first line that has one (-1: none); empty unless `stratified`. */
  stratum: Int32Array;
  size = 0;

  constructor(readonly stratified = false) {
    this.stratum = new Int32Array(stratified ? 1024 : 0).fill(-1);
  }

  /** Counts one asking of `text` at `line`; returns its group. Throws a RangeError past MAX_DISTINCT (the caller says why). */
  add(text: string, language: number, stratum: number, line: number): number {
    const slots = this.#slots;
    if (slots === undefined) throw new Error('Groups.add after counted()');
    if (this.#scratch.length < text.length * 3) this.#scratch = Buffer.allocUnsafe(text.length * 3);
    const n = this.#scratch.write(text, 0, 'utf8');
    const hash = hashOf(this.#scratch, n, language);
    let at = hash & (slots.length - 1);
    for (let g = slots[at]!; g !== EMPTY; g = slots[at]!) {
      if (this.#hash[g] === hash && this.language[g] === language && this.#equals(g, n)) return this.#seen(g, stratum);
      at = (at + 1) & (slots.length - 1);
    }
    if (this.size >= MAX_DISTINCT) throw new RangeError('too many distinct questions');
    const g = this.size++;
    if (g === this.count.length) this.#grow();
    if (this.#used + n > this.#bytes.length) this.#bytes = grownBuffer(this.#bytes, this.#used, this.#used + n);
    this.#scratch.copy(this.#bytes, this.#used, 0, n);
    this.#used += n;
    this.#start[g + 1] = this.#used;
    this.#hash[g] = hash;
    this.language[g] = language;
    this.first[g] = line;
    slots[at] = g;
    if (this.size * 2 > slots.length) this.#rehash();
    return this.#seen(g, stratum);
  }

  /** The folded text of group `g`. */
  textOf(g: number): string {
    return this.#bytes.toString('utf8', this.#start[g]!, this.#start[g + 1]!);
  }

  /** Every line is counted: the table that finds a text's group goes (`add` can no longer be called). */
  counted(): void {
    this.#slots = undefined;
  }

  /** The texts are no longer needed: their memory goes (`textOf` can no longer be called). */
  forgetTexts(): void {
    this.#bytes = Buffer.alloc(0);
    this.#start = new Int32Array(0);
  }

  #seen(g: number, stratum: number): number {
    this.count[g]!++;
    if (this.stratified && this.stratum[g] === -1 && stratum >= 0) this.stratum[g] = stratum;
    return g;
  }

  #equals(g: number, n: number): boolean {
    const start = this.#start[g]!;
    if (this.#start[g + 1]! - start !== n) return false;
    for (let i = 0; i < n; i++) if (this.#bytes[start + i] !== this.#scratch[i]) return false;
    return true;
  }

  #rehash(): void {
    const slots = new Int32Array(this.#slots!.length * 2).fill(EMPTY);
    for (let g = 0; g < this.size; g++) {
      let at = this.#hash[g]! & (slots.length - 1);
      while (slots[at] !== EMPTY) at = (at + 1) & (slots.length - 1);
      slots[at] = g;
    }
    this.#slots = slots;
  }

  #grow(): void {
    const grown = <T extends Int32Array | Uint16Array>(a: T, b: T): T => (b.set(a), b);
    const n = this.count.length * 2;
    this.count = grown(this.count, new Int32Array(n));
    this.first = grown(this.first, new Int32Array(n));
    this.language = grown(this.language, new Uint16Array(n));
    this.#hash = grown(this.#hash, new Int32Array(n));
    this.#start = grown(this.#start, new Int32Array(n + 1));
    if (this.stratified) this.stratum = grown(this.stratum, new Int32Array(n).fill(-1));
  }
}

/** FNV-1a over a text's bytes and its language, finished by murmur3's mixer (the table takes its low bits). */
function hashOf(bytes: Buffer, n: number, language: number): number {
  let h = 0x811c9dc5 ^ language;
  for (let i = 0; i < n; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  return h;
}

/** A buffer twice as large (or as large as `need`), holding the first `used` bytes of `b`. */
function grownBuffer(b: Buffer, used: number, need: number): Buffer {
  const next = Buffer.allocUnsafe(Math.max(b.length * 2, need));
  b.copy(next, 0, 0, used);
  return next;
}
