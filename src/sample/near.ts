import { overlap, trigrams } from './trigrams.js';

/**
 * The default similarity at which two questions are near-repeats: the Jaccard similarity of their character
 * 3-grams (trigrams.ts) of 0.8 or more. Measured on pairs (docs/datasets.md, "From a log to a question set"): a typo
 * or a plural (`pay my bill` / `pay my bil`, `my bills`: 0.86) folds; another word (`how do i` / `how can i`: 0.64),
 * another day (`sunday` / `monday`: 0.74) or another object (`cancel my order` / `my account`: 0.39) does not.
 */
export const NEAR_REPEAT_SIMILARITY = 0.8;

/**
 * MinHash with locality-sensitive hashing: BANDS bands of ROWS min-hashes each. Two texts of 3-gram similarity s
 * meet in some band with probability 1 - (1 - s^ROWS)^BANDS: 99.96% at 0.8, 99.999% at 0.85, while texts that share
 * a word or two (s about 0.1) meet one time in 10^5 or less, so candidates are few.
 */
const BANDS = 20;
const ROWS = 5;

/**
 * The most candidates compared for one question, and the most earlier (more asked) members of one bucket it is
 * compared with: past them (hundreds of texts alike in a band), its search stops there, and it is counted when it
 * found nothing to join.
 */
export const MAX_COMPARED = 1000;
const MAX_PER_BUCKET = 400;

export interface NearFolding {
  /** The group each group is folded into (itself for the most asked of its near-repeats). */
  leaderOf: Int32Array;
  /** Groups kept apart whose search stopped at MAX_COMPARED or MAX_PER_BUCKET (a near-repeat of theirs may have been past it). */
  cut: number;
}

/** What the folding reads of the groups, each in `order` (most asked first). */
export interface NearInput {
  texts: readonly string[];
  language: ArrayLike<number>;
  /** Groups, most asked first (ties: the first asked first). */
  order: Int32Array;
}

// a bucket (28 bits) and a rank (25 bits) in one double, exact up to 2^53
const RANK_SPAN = 2 ** 25;
const BUCKET_SPAN = 2 ** 28;
const EPSILON = 1e-9;

/** The numbers a text holds, as a hash (0: none): two questions whose numbers differ are never folded (version 10 / 11). */
function numbersOf(text: string): number {
  let h = 0;
  let inNumber = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const digit = c >= 0x30 && c <= 0x39;
    if (digit && !inNumber && h !== 0) h = Math.imul(h ^ 0x20, 0x01000193) | 1; // between two numbers
    if (digit) h = Math.imul(h ^ c, 0x01000193) | 1;
    inNumber = digit;
  }
  return h;
}

/** The seeds of the BANDS × ROWS hash functions (murmur3's finalizer of a 3-gram's hash and the seed): fixed, so the folding is the same on every run. */
const K = BANDS * ROWS;
const SEEDS = Int32Array.from({ length: K }, (_, k) => Math.imul(k + 1, 0x9e3779b9) ^ 0x5bd1e995);
const minima = new Int32Array(K);

/** A text's bucket in each band: the hash of its ROWS min-hashes there. */
function bandsOf(tokens: Int32Array, out: Int32Array, at: number): void {
  minima.fill(0x7fffffff);
  for (let i = 0; i < tokens.length; i++) {
    const x = tokens[i]!;
    for (let k = 0; k < K; k++) {
      let v = Math.imul(x ^ SEEDS[k]!, 0x85ebca6b);
      v ^= v >>> 13;
      v = Math.imul(v, 0xc2b2ae35);
      v ^= v >>> 16; // signed: a minimum is as good in either order
      if (v < minima[k]!) minima[k] = v;
    }
  }
  for (let b = 0; b < BANDS; b++) {
    let bucket = 0x811c9dc5 ^ b;
    for (let r = 0; r < ROWS; r++) bucket = Math.imul(bucket ^ minima[b * ROWS + r]!, 0x01000193);
    out[at + b] = (bucket ^ (bucket >>> 15)) & (BUCKET_SPAN - 1);
  }
}

/**
 * Folds near-repeats into the most asked of them: each group, most asked first, joins the most similar group already
 * kept (the most asked among equals) of the same language, with the same numbers and a 3-gram Jaccard similarity of
 * `similarity` or more; else it is kept, for the following ones to join. Every member of a folded group is thus near
 * its representative (no chain of small steps drifts away from it).
 *
 * Candidates are the texts that fall in the same bucket of some band (MinHash LSH, BANDS and ROWS above), each
 * checked by its exact similarity. Memory: BANDS ints per group, a double per group while a band is sorted, and the
 * pairs found similar. Time: linear in the 3-grams, plus the candidates.
 */
export function foldNearRepeats(input: NearInput, similarity = NEAR_REPEAT_SIMILARITY): NearFolding {
  const { texts, language, order } = input;
  const n = order.length;
  const leaderOf = new Int32Array(texts.length);
  for (let g = 0; g < leaderOf.length; g++) leaderOf[g] = g;
  if (similarity >= 1 || n < 2) return { leaderOf, cut: 0 };
  if (n >= RANK_SPAN) throw new RangeError(`at most ${RANK_SPAN - 1} groups`);
  const t = similarity;

  // by rank (most asked first): each text's size, numbers and buckets
  const size = new Int32Array(n);
  const numbers = new Int32Array(n);
  const buckets = new Int32Array(n * BANDS);
  for (let r = 0; r < n; r++) {
    const text = texts[order[r]!]!;
    const tokens = trigrams(text);
    size[r] = tokens.length;
    numbers[r] = numbersOf(text);
    bandsOf(tokens, buckets, r * BANDS);
  }

  const pairs = new Pairs();
  const cache = new TrigramCache((r) => trigrams(texts[order[r]!]!));
  const compared = new Uint16Array(n);
  const stopped = new Uint8Array(n);
  const keys = new Float64Array(n);
  for (let b = 0; b < BANDS; b++) {
    for (let r = 0; r < n; r++) keys[r] = buckets[r * BANDS + b]! * RANK_SPAN + r;
    keys.sort(); // each bucket's texts together, most asked first
    for (let start = 0; start < n; ) {
      const bucket = Math.floor(keys[start]! / RANK_SPAN);
      let end = start + 1;
      while (end < n && Math.floor(keys[end]! / RANK_SPAN) === bucket) end++;
      for (let p = start + 1; p < end; p++) {
        const x = keys[p]! % RANK_SPAN;
        if (p - start > MAX_PER_BUCKET) stopped[x] = 1;
        let tokens: Int32Array | undefined;
        for (let q = start; q < Math.min(p, start + MAX_PER_BUCKET); q++) {
          const y = keys[q]! % RANK_SPAN;
          if (metBefore(buckets, x, y, b) || numbers[x] !== numbers[y] || language[order[x]!] !== language[order[y]!]) continue;
          if (size[y]! < t * size[x]! - EPSILON || size[x]! < t * size[y]! - EPSILON) continue;
          if (compared[x]! >= MAX_COMPARED) {
            stopped[x] = 1;
            break;
          }
          compared[x]!++;
          tokens ??= trigrams(texts[order[x]!]!);
          const other = cache.get(y);
          const shared = overlap(tokens, other);
          const all = tokens.length + other.length - shared;
          if (shared >= t * all - EPSILON) pairs.add(x, y, shared / all);
        }
      }
      start = end;
    }
  }

  // most asked first: join the most similar kept one, else be kept
  const kept = new Uint8Array(n);
  const byX = pairs.byFirst(n);
  for (let x = 0; x < n; x++) {
    let best = -1;
    let bestSimilarity = 0;
    for (let k = byX.start[x]!; k < byX.start[x + 1]!; k++) {
      const y = byX.second[k]!;
      const s = byX.similarity[k]!;
      if (kept[y] === 1 && (s > bestSimilarity || (s === bestSimilarity && y < best))) [best, bestSimilarity] = [y, s];
    }
    if (best >= 0) leaderOf[order[x]!] = order[best]!;
    else kept[x] = 1;
  }
  // a search stopped early matters where it found nothing: a near-repeat may have been past the stop
  let cut = 0;
  for (let x = 0; x < n; x++) cut += stopped[x]! & kept[x]!;
  return { leaderOf, cut };
}

/** Whether texts x and y shared a bucket in a band before `band`: their pair was looked at there. */
function metBefore(buckets: Int32Array, x: number, y: number, band: number): boolean {
  for (let b = 0; b < band; b++) if (buckets[x * BANDS + b] === buckets[y * BANDS + b]) return true;
  return false;
}

/**
 * The 3-grams of the texts compared most, by rank: a direct-mapped cache, as the first members of a large bucket are
 * compared with each of the others.
 */
class TrigramCache {
  readonly #ranks = new Int32Array(4096).fill(-1);
  readonly #sets: Int32Array[] = [];
  constructor(readonly of: (rank: number) => Int32Array) {}

  get(rank: number): Int32Array {
    const slot = rank & 4095;
    if (this.#ranks[slot] !== rank) {
      this.#ranks[slot] = rank;
      this.#sets[slot] = this.of(rank);
    }
    return this.#sets[slot]!;
  }
}

/** Pairs (x, y, similarity) of ranks, y before x, in typed arrays that grow. */
class Pairs {
  #first = new Int32Array(1024);
  #second = new Int32Array(1024);
  #similarity = new Float64Array(1024);
  #size = 0;

  add(x: number, y: number, similarity: number): void {
    if (this.#size === this.#first.length) {
      const grow = <T extends Int32Array | Float64Array>(a: T, b: T): T => (b.set(a), b);
      this.#first = grow(this.#first, new Int32Array(this.#size * 2));
      this.#second = grow(this.#second, new Int32Array(this.#size * 2));
      this.#similarity = grow(this.#similarity, new Float64Array(this.#size * 2));
    }
    this.#first[this.#size] = x;
    this.#second[this.#size] = y;
    this.#similarity[this.#size++] = similarity;
  }

  /** The pairs grouped by x (a counting sort): x's are at start[x]..start[x + 1]. */
  byFirst(n: number): { start: Int32Array; second: Int32Array; similarity: Float64Array } {
    const start = new Int32Array(n + 1);
    for (let k = 0; k < this.#size; k++) start[this.#first[k]! + 1]!++;
    for (let x = 0; x < n; x++) start[x + 1]! += start[x]!;
    const at = start.slice(0, n);
    const second = new Int32Array(this.#size);
    const similarity = new Float64Array(this.#size);
    for (let k = 0; k < this.#size; k++) {
      const i = at[this.#first[k]!]!++;
      second[i] = this.#second[k]!;
      similarity[i] = this.#similarity[k]!;
    }
    return { start, second, similarity };
  }
}
