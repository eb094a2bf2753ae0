import { mulberry32 } from '../util/random.js';
import { NEAR_REPEAT_SIMILARITY } from './options.js';
import { overlap, trigrams } from './trigrams.js';

/**
 * MinHash with locality-sensitive hashing: BANDS bands of ROWS min-hashes each. Two texts of 3-gram similarity s
 * meet in some band with probability 1 - (1 - s^ROWS)^BANDS: 99.96% at 0.8, 99.999% at 0.85; texts that share a
 * word or two (s about 0.1) seldom do.
 */
const BANDS = 20;
const ROWS = 5;

/**
 * A sketch of SKETCH min-hashes (a byte each) per text, compared before the exact similarity: a pair is compared only
 * when as many of them agree as a pair at the threshold would show but one time in 10^4 (at 0.8: 6 of 16). Texts that
 * share a band's most common 3-grams fall in one bucket by the thousand; this keeps their comparisons cheap.
 */
const SKETCH = 16;
const SKETCH_MISS = 1e-4;

/**
 * The most earlier (more asked) members of one bucket a question is checked against, and the most it is compared
 * with by its exact similarity: past them (texts alike by the thousand), its search stops there, and it is counted
 * when it found nothing to join.
 */
const MAX_PER_BUCKET = 1000;
export const MAX_COMPARED = 200;

export interface NearFolding {
  /** The group each group is folded into (itself for the most asked of its near-repeats). */
  leaderOf: Int32Array;
  /** Groups kept apart whose search stopped at MAX_COMPARED or MAX_PER_BUCKET (a near-repeat of theirs may have been past it). */
  cut: number;
}

/** What the folding reads of the groups, each in `order` (most asked first). */
export interface NearInput {
  /** Each group's folded text. */
  textOf: (group: number) => string;
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

/**
 * The seeds of the hash functions (murmur3's finalizer of a 3-gram's hash xor the seed), the bands' then the sketch's:
 * drawn from a fixed seed, so the folding is the same on every run. (Seeds in arithmetic progression made the
 * functions of a band agree on which 3-gram is least: thousands of texts sharing one word fell in one bucket.)
 */
const SEEDS = ((random) => Int32Array.from({ length: BANDS * ROWS + SKETCH }, () => Math.floor(random() * 2 ** 32) | 0))(mulberry32(0x5eed));
const SKETCH_SEEDS = SEEDS.subarray(BANDS * ROWS);
const BANDS_AT_ONCE = 5;

/** The least hash of `tokens` under each seed, into `out`. */
function minHashes(tokens: Int32Array, seeds: Int32Array, out: Int32Array): void {
  out.fill(0x7fffffff);
  for (let i = 0; i < tokens.length; i++) {
    const x = tokens[i]!;
    for (let k = 0; k < seeds.length; k++) {
      let v = x ^ seeds[k]!;
      v ^= v >>> 16;
      v = Math.imul(v, 0x85ebca6b);
      v ^= v >>> 13;
      v = Math.imul(v, 0xc2b2ae35);
      v ^= v >>> 16; // signed: a minimum is as good in either order
      if (v < out[k]!) out[k] = v;
    }
  }
}

const minima = new Int32Array(BANDS_AT_ONCE * ROWS);

/** A text's bucket in bands `first`..`first + BANDS_AT_ONCE - 1`: the hash of its ROWS min-hashes in each. */
function bandsOf(tokens: Int32Array, first: number, out: Int32Array, at: number): void {
  minHashes(tokens, SEEDS.subarray(first * ROWS, (first + BANDS_AT_ONCE) * ROWS), minima);
  for (let b = 0; b < BANDS_AT_ONCE; b++) {
    let bucket = 0x811c9dc5 ^ (first + b);
    for (let r = 0; r < ROWS; r++) bucket = Math.imul(bucket ^ minima[b * ROWS + r]!, 0x01000193);
    out[at + b] = (bucket ^ (bucket >>> 15)) & (BUCKET_SPAN - 1);
  }
}

const sketchMinima = new Int32Array(SKETCH);

/** A text's sketch: the low byte of each of its SKETCH min-hashes. */
function sketchOf(tokens: Int32Array, out: Uint8Array, at: number): void {
  minHashes(tokens, SKETCH_SEEDS, sketchMinima);
  for (let k = 0; k < SKETCH; k++) out[at + k] = sketchMinima[k]! & 0xff;
}

/** How many bytes of two sketches agree. */
function agreeing(sketch: Uint8Array, x: number, y: number): number {
  let n = 0;
  for (let k = 0; k < SKETCH; k++) if (sketch[x * SKETCH + k] === sketch[y * SKETCH + k]) n++;
  return n;
}

/**
 * The fewest agreeing bytes of the sketch a pair of similarity `t` shows but with probability SKETCH_MISS: each byte
 * agrees with probability t (and 1/256 of the others), so the count is binomial.
 */
export function sketchFloor(t: number): number {
  const p = t + (1 - t) / 256;
  let below = 0; // P(count < m)
  let m = 0;
  for (let k = 0; k <= SKETCH; k++) {
    const pk = binomial(SKETCH, k) * p ** k * (1 - p) ** (SKETCH - k);
    if (below + pk > SKETCH_MISS) break;
    below += pk;
    m = k + 1;
  }
  return m;
}

const binomial = (n: number, k: number): number => {
  let c = 1;
  for (let i = 1; i <= k; i++) c = (c * (n - i + 1)) / i;
  return c;
};

/**
 * Folds near-repeats into the most asked of them: each group, most asked first, joins the most similar group already
 * kept (the most asked among equals) of the same language, with the same numbers and a 3-gram Jaccard similarity of
 * `similarity` or more; else it is kept, for the following ones to join. Every member of a folded group is thus near
 * its representative (no chain of small steps drifts away from it).
 *
 * Candidates are the texts that fall in the same bucket of some band (MinHash LSH, BANDS and ROWS above) and whose
 * sketches agree enough, each checked by its exact similarity. Memory per group: BANDS_AT_ONCE ints, a double, SKETCH
 * bytes; and the pairs found similar. Time: linear in the 3-grams, plus the candidates (bounded by the limits above).
 */
export function foldNearRepeats(input: NearInput, similarity = NEAR_REPEAT_SIMILARITY): NearFolding {
  const { textOf, language, order } = input;
  const n = order.length;
  const leaderOf = new Int32Array(n);
  for (let g = 0; g < leaderOf.length; g++) leaderOf[g] = g;
  if (similarity >= 1 || n < 2) return { leaderOf, cut: 0 };
  if (n >= RANK_SPAN) throw new RangeError(`at most ${RANK_SPAN - 1} groups`);
  const t = similarity;

  // by rank (most asked first): each text's size, numbers and sketch
  const size = new Int32Array(n);
  const numbers = new Int32Array(n);
  const sketch = new Uint8Array(n * SKETCH);
  const floor = sketchFloor(t);
  const scratch = new Int32Array(4096); // a question is at most MAX_QUESTION_CHARS long: its 3-grams fit, but for odd NFKC forms
  for (let r = 0; r < n; r++) {
    const tokens = trigrams(textOf(order[r]!), scratch);
    size[r] = tokens.length;
    numbers[r] = numbersOf(textOf(order[r]!));
    sketchOf(tokens, sketch, r * SKETCH);
  }

  const pairs = new Pairs();
  const cache = new TrigramCache((r, into) => trigrams(textOf(order[r]!), into));
  const compared = new Uint16Array(n);
  const stopped = new Uint8Array(n);
  const keys = new Float64Array(n);
  // the bands a few at a time, so that their buckets take BANDS_AT_ONCE ints per text (a pair met in two rounds is compared in each)
  const buckets = new Int32Array(n * BANDS_AT_ONCE);
  for (let round = 0; round < BANDS; round += BANDS_AT_ONCE) {
    for (let r = 0; r < n; r++) bandsOf(trigrams(textOf(order[r]!), scratch), round, buckets, r * BANDS_AT_ONCE);
    for (let b = 0; b < BANDS_AT_ONCE; b++) {
      for (let r = 0; r < n; r++) keys[r] = buckets[r * BANDS_AT_ONCE + b]! * RANK_SPAN + r;
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
            if (size[y]! < t * size[x]! - EPSILON || size[x]! < t * size[y]! - EPSILON || agreeing(sketch, x, y) < floor) continue;
            if (compared[x]! >= MAX_COMPARED) {
              stopped[x] = 1;
              break;
            }
            compared[x]!++;
            tokens ??= trigrams(textOf(order[x]!), scratch);
            const other = cache.get(y);
            const shared = overlap(tokens, other);
            const all = tokens.length + other.length - shared;
            if (shared >= t * all - EPSILON) pairs.add(x, y, shared / all);
          }
        }
        start = end;
      }
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

/** Whether texts x and y shared a bucket in a band of this round before `band`: their pair was looked at there. */
function metBefore(buckets: Int32Array, x: number, y: number, band: number): boolean {
  for (let b = 0; b < band; b++) if (buckets[x * BANDS_AT_ONCE + b] === buckets[y * BANDS_AT_ONCE + b]) return true;
  return false;
}

/**
 * The 3-grams of the texts compared most, by rank: a direct-mapped cache, as the first members of a large bucket are
 * compared with each of the others.
 */
class TrigramCache {
  readonly #ranks = new Int32Array(4096).fill(-1);
  /** Each slot's set, a view of its buffer (kept and grown, so that the cache allocates little). */
  readonly #sets: Int32Array[] = [];
  readonly #buffers: Int32Array[] = [];
  constructor(readonly of: (rank: number, into: Int32Array) => Int32Array) {}

  get(rank: number): Int32Array {
    const slot = rank & 4095;
    if (this.#ranks[slot] !== rank) {
      this.#ranks[slot] = rank;
      const set = this.of(rank, (this.#buffers[slot] ??= new Int32Array(64)));
      if (set.buffer !== this.#buffers[slot]!.buffer) this.#buffers[slot] = set; // grown
      this.#sets[slot] = set;
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
