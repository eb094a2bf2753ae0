import { overlap, TOKEN_BITS, trigrams } from './trigrams.js';

/**
 * The default similarity at which two questions are near-repeats: the Jaccard similarity of their character
 * 3-grams (trigrams.ts) of 0.8 or more. Measured on pairs (docs/datasets.md, "From a log to a question set"): a typo
 * or a plural (`pay my bill` / `pay my bil`, `my bills`: 0.86) folds; another word (`how do i` / `how can i`: 0.64),
 * another day (`sunday` / `monday`: 0.74) or another object (`cancel my order` / `my account`: 0.39) does not.
 */
export const NEAR_REPEAT_SIMILARITY = 0.8;

/**
 * The most index entries looked at, and candidates compared, for one question: past them (thousands of texts
 * sharing their rarest 3-grams, which no real log has), the search for that question stops and is counted.
 */
export const MAX_LOOKED_AT = 20_000;
export const MAX_COMPARED = 500;

export interface NearFolding {
  /** The group each group is folded into (itself for the most asked of its near-repeats). */
  leaderOf: Int32Array;
  /** Groups whose search stopped at MAX_LOOKED_AT or MAX_COMPARED. */
  cut: number;
}

/** What the folding reads of the groups, each in `order` (most asked first). */
export interface NearInput {
  texts: readonly string[];
  language: ArrayLike<number>;
  /** Groups, most asked first (ties: the first asked first). */
  order: Int32Array;
}

// ranks are kept in 25 bits beside a token of 28 in one double (exact up to 2^53)
const RANK_SPAN = 2 ** 25;
const FREQUENCY_BUCKETS = 1 << 20;
const EPSILON = 1e-9;

/** The numbers a text holds, as a hash (0: none): two questions whose numbers differ are never folded (version 10 / 11). */
function numbersOf(text: string): number {
  let h = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const digit = c >= 0x30 && c <= 0x39;
    if (digit || (h !== 0 && text.charCodeAt(i - 1) >= 0x30 && text.charCodeAt(i - 1) <= 0x39)) h = Math.imul(h ^ (digit ? c : 0x20), 0x01000193) | 1;
  }
  return h;
}

/**
 * Folds near-repeats into the most asked of them: each group, most asked first, joins the most similar group
 * already kept (the most asked among equals) of the same language, with the same numbers and a 3-gram Jaccard
 * similarity of `similarity` or more; else it is kept, for the following ones to join. Every member of a folded
 * group is thus near its representative (no chain of small steps drifts away from it).
 *
 * Candidates come from an index of each text's rarest 3-grams, a prefix filter as in set-similarity joins (Bayardo
 * et al., "Scaling up all pairs similarity search", 2007): two sets with a Jaccard similarity of t or more share
 * one of their first |x| - ⌈t·|x|⌉ + 1 tokens in any one global order; the rarest first keeps the lists short. So
 * every pair at or above the threshold is found (up to the limits above), and each candidate is checked by its
 * exact similarity. Memory: a double per indexed token (about a quarter of a text's 3-grams at 0.8), ints per group.
 */
export function foldNearRepeats(input: NearInput, similarity = NEAR_REPEAT_SIMILARITY): NearFolding {
  const { texts, language, order } = input;
  const n = order.length;
  const leaderOf = new Int32Array(texts.length);
  for (let g = 0; g < leaderOf.length; g++) leaderOf[g] = g;
  if (similarity >= 1 || n < 2) return { leaderOf, cut: 0 };
  if (n >= RANK_SPAN) throw new RangeError(`at most ${RANK_SPAN - 1} groups`);
  const t = similarity;

  // how many texts hold each 3-gram (in buckets: the order need only be the same for every text)
  const frequency = new Uint32Array(FREQUENCY_BUCKETS);
  const size = new Int32Array(n);
  const numbers = new Int32Array(n);
  let indexed = 0;
  for (let r = 0; r < n; r++) {
    const tokens = trigrams(texts[order[r]!]!);
    size[r] = tokens.length;
    numbers[r] = numbersOf(texts[order[r]!]!);
    indexed += prefixLength(tokens.length, t);
    for (const token of tokens) frequency[token & (FREQUENCY_BUCKETS - 1)]!++;
  }
  const rarestFirst = (tokens: Int32Array): Float64Array => {
    const keys = new Float64Array(tokens.length);
    for (let i = 0; i < tokens.length; i++) keys[i] = frequency[tokens[i]! & (FREQUENCY_BUCKETS - 1)]! * 2 ** TOKEN_BITS + tokens[i]!;
    return keys.sort();
  };
  const tokenOf = (key: number): number => key % 2 ** TOKEN_BITS;

  // the index: (token, rank) pairs of every text's prefix, sorted, so a token's texts are together, most asked first
  const index = new Float64Array(indexed);
  let at = 0;
  for (let r = 0; r < n; r++) {
    const keys = rarestFirst(trigrams(texts[order[r]!]!));
    for (let i = 0; i < prefixLength(keys.length, t); i++) index[at++] = tokenOf(keys[i]!) * RANK_SPAN + r;
  }
  index.sort();

  const kept = new Uint8Array(n);
  const seen = new Int32Array(n).fill(-1);
  let cut = 0;
  for (let r = 0; r < n; r++) {
    const x = order[r]!;
    const tokens = trigrams(texts[x]!);
    const keys = rarestFirst(tokens);
    const [low, high] = [Math.ceil(t * tokens.length - EPSILON), Math.floor(tokens.length / t + EPSILON)];
    let best = -1;
    let bestSimilarity = 0;
    let lookedAt = 0;
    let compared = 0;
    let stopped = false;
    search: for (let i = 0; i < prefixLength(keys.length, t); i++) {
      const base = tokenOf(keys[i]!) * RANK_SPAN;
      for (let k = firstAtLeast(index, base); k < index.length && index[k]! < base + r; k++) {
        if (++lookedAt > MAX_LOOKED_AT) {
          stopped = true;
          break search;
        }
        const y = (index[k]! - base) | 0; // a rank before r: more asked
        if (kept[y] === 0 || seen[y] === r || size[y]! < low || size[y]! > high || numbers[y] !== numbers[r]) continue;
        seen[y] = r;
        const other = order[y]!;
        if (language[other] !== language[x]) continue;
        if (++compared > MAX_COMPARED) {
          stopped = true;
          break search;
        }
        const candidate = trigrams(texts[other]!);
        const shared = overlap(tokens, candidate);
        const all = tokens.length + candidate.length - shared;
        if (shared < t * all - EPSILON) continue;
        const s = shared / all;
        if (s > bestSimilarity || (s === bestSimilarity && y < best)) [best, bestSimilarity] = [y, s];
      }
    }
    if (stopped) cut++;
    if (best >= 0) leaderOf[x] = order[best]!;
    else kept[r] = 1;
  }
  return { leaderOf, cut };
}

/** How many of a set's rarest tokens are indexed: |x| - ⌈t·|x|⌉ + 1 (at least one). */
const prefixLength = (size: number, t: number): number => (size === 0 ? 0 : Math.max(1, size - Math.ceil(t * size - EPSILON) + 1));

/** The first position of `sorted` holding `value` or more. */
function firstAtLeast(sorted: Float64Array, value: number): number {
  let [lo, hi] = [0, sorted.length];
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
