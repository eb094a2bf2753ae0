import type { SparseVector } from './features.js';

/**
 * A multinomial logistic regression over the word and character features (features.ts), trained on the entries'
 * examples when the retriever is built. BM25 says how well a question matches an entry's examples; this model learns
 * which words and pieces of words tell confusable entries apart ("shopping_list" vs "shopping_list_update").
 *
 * Training is SGD on the cross-entropy over a *candidate set* per example: its own entry and the entries whose
 * centroid (the sum of their examples' word-term vectors) is nearest to it, 20 in all. The other entries are far from
 * it already, and leaving them out makes training 7× cheaper on CLINC150 (150 entries) for 0.1 point of val top-1.
 * A question is scored against every entry. See docs/engine.md.
 */

/** Work is examples × candidates × epochs × features; above this many example-candidate pairs there is no model. */
export const MAX_TRAINING_PAIRS = 5_000_000;
/** More examples than this (2^21) and there is no model: the training order packs an example's index in 21 bits. */
const MAX_EXAMPLES = 2 ** 21;
/** Weights are features × entries; above this many (128 MB) there is no model. */
export const MAX_WEIGHTS = 32_000_000;

const CANDIDATES = 20;
/** Up to this many example-entry pairs every entry is a candidate of every example (a plain softmax). */
const FULL_PAIRS = 1_000_000;
const EPOCHS = 4;
const LEARNING_RATE = 2; // divided by (1 + epoch)
/** Gradients smaller than this are skipped: after an epoch most candidates are already far from most examples. */
const MIN_GRADIENT = 1e-3;
/**
 * Label smoothing: an example's target gives this share evenly to its candidates (its own entry included) and the
 * rest to its own entry, so the weights stop growing once an example is learnt. With the temperature, out-of-scope
 * questions get flatter probabilities than paraphrases of an entry (CLINC150 val: +1.1 points at 70-95% recall).
 */
const SMOOTHING = 0.15;
/** Each feature of an example is left out of a step with this probability (the others scaled up to match). */
const FEATURE_DROPOUT = 0.2;
/**
 * A question's logits are divided by a temperature of min(1, this / ln(entries)) before the softmax: 0.52 at 150
 * entries (CLINC150), sharpening what smoothing flattened; 1 (the plain softmax) up to 13 entries, where a softmax is
 * sure of one of a few entries whatever the question and sharpening it would lift off-topic questions over the floor.
 * On CLINC150 val, with knowledge bases of 5-150 of its intents, the best temperature rises as ln(entries) falls
 * (docs/engine.md).
 */
const TEMPERATURE_LOG_SCALE = 2.6;

export interface Classifier {
  /** Probability of each entry (by index) for the question's vector; sums to 1. */
  probabilities(x: SparseVector): Float64Array;
}

/**
 * `vectors[i]` is an example of entry `labels[i]`, out of `classes` entries, in a space of `size` features; the
 * candidate sets are found with the features below `candidateFeatures` (the word terms: their lists of entries are
 * short). Undefined when there is nothing (or too much) to learn.
 */
export function trainClassifier(vectors: readonly SparseVector[], labels: readonly number[], classes: number, size: number, candidateFeatures = size, keys?: readonly number[]): Classifier | undefined {
  const examples = vectors.map((_, i) => i).filter((i) => vectors[i]!.ids.length > 0);
  const k = examples.length * classes <= FULL_PAIRS ? classes : Math.min(classes, CANDIDATES);
  if (classes < 2 || vectors.length > MAX_EXAMPLES || new Set(examples.map((i) => labels[i])).size < 2 || examples.length * k > MAX_TRAINING_PAIRS || size * classes > MAX_WEIGHTS) return undefined;

  // weights[feature * classes + entry]: a question's scores are the sums of its features' rows.
  const weights = new Float32Array(size * classes);
  const bias = new Float32Array(classes);
  let candidates: Int32Array;
  if (k < classes) {
    candidates = candidateSets(vectors, labels, examples, classes, candidateFeatures, k, weights);
    weights.fill(0);
  } else {
    const all = Int32Array.from({ length: classes }, (_, c) => c);
    candidates = new Int32Array(vectors.length * k);
    for (const n of examples) candidates.set(all, n * k);
  }

  // Stochastic gradient descent, each epoch in its own pseudo-random order of the examples' keys (by default their
  // indexes): with keys from the examples' texts, an edit to one entry moves only its own examples in the order, so
  // the rest of the model learns as before (a build is repeatable, and answers the edit does not touch stay put).
  const key = (n: number): number => keys?.[n] ?? n;
  const z = new Float64Array(k);
  const cs = new Int32Array(k); // this example's candidates (copied: a subarray a step would be garbage)
  let kept = new Uint8Array(256); // this step's features left in (FEATURE_DROPOUT)
  const scale = 1 / (1 - FEATURE_DROPOUT);
  for (let epoch = 0; epoch < EPOCHS; epoch++) {
    // (hash, index) packed in one float (32 + 21 bits) and sorted natively; the index breaks ties
    const packed = Float64Array.from(examples, (n) => mix(key(n), epoch + 1) * 2 ** 21 + n).sort();
    const order = Int32Array.from(packed, (p) => p % 2 ** 21);
    const rate = LEARNING_RATE / (1 + epoch);
    for (let o = 0; o < order.length; o++) {
      const n = order[o]!;
      const { ids, values } = vectors[n]!;
      // which features this step sees: a hash of the example's key, the epoch and the feature's place
      if (kept.length < ids.length) kept = new Uint8Array(ids.length);
      const h = mix(key(n), 99991 * (epoch + 1));
      for (let f = 0; f < ids.length; f++) kept[f] = mix(h, f + 1) / 2 ** 32 >= FEATURE_DROPOUT ? 1 : 0;
      for (let a = 0; a < k; a++) cs[a] = candidates[n * k + a]!;
      for (let a = 0; a < k; a++) z[a] = bias[cs[a]!]!;
      for (let f = 0; f < ids.length; f++) {
        if (!kept[f]) continue;
        const row = ids[f]! * classes;
        const v = values[f]! * scale;
        for (let a = 0; a < k; a++) z[a]! += weights[row + cs[a]!]! * v;
      }
      let max = -Infinity;
      for (let a = 0; a < k; a++) if (z[a]! > max) max = z[a]!;
      let sum = 0;
      for (let a = 0; a < k; a++) sum += z[a] = Math.exp(z[a]! - max);
      const label = labels[n]!;
      let active = 0; // candidates whose gradient is worth a step, moved to the front of cs and z
      for (let a = 0; a < k; a++) {
        const gradient = z[a]! / sum - (cs[a] === label ? 1 - SMOOTHING : 0) - SMOOTHING / k;
        if (Math.abs(gradient) < MIN_GRADIENT) continue;
        cs[active] = cs[a]!;
        z[active] = rate * gradient;
        bias[cs[active]!]! -= z[active++]!;
      }
      for (let f = 0; f < ids.length; f++) {
        if (!kept[f]) continue;
        const row = ids[f]! * classes;
        const v = values[f]! * scale;
        for (let a = 0; a < active; a++) weights[row + cs[a]!]! -= z[a]! * v;
      }
    }
  }

  const temperature = Math.min(1, TEMPERATURE_LOG_SCALE / Math.log(classes)); // classes >= 2 here
  return {
    probabilities({ ids, values }) {
      const p = Float64Array.from(bias);
      for (let f = 0; f < ids.length; f++) {
        const row = ids[f]! * classes;
        const v = values[f]!;
        for (let c = 0; c < classes; c++) p[c]! += weights[row + c]! * v;
      }
      for (let c = 0; c < classes; c++) p[c]! /= temperature;
      let max = -Infinity;
      for (let c = 0; c < classes; c++) if (p[c]! > max) max = p[c]!;
      let sum = 0;
      for (let c = 0; c < classes; c++) sum += p[c] = Math.exp(p[c]! - max);
      for (let c = 0; c < classes; c++) p[c]! /= sum;
      return p;
    },
  };
}

/**
 * For each example, its own entry and the k - 1 other entries whose centroids are nearest (by dot product with the
 * centroid scaled to unit length), over the features below `size` (a vector lists them first): `k` entry indexes per
 * example, flat. `scratch` (at least size × classes) is used and left dirty.
 */
function candidateSets(vectors: readonly SparseVector[], labels: readonly number[], examples: readonly number[], classes: number, size: number, k: number, scratch: Float32Array): Int32Array {
  for (const n of examples) {
    const { ids, values } = vectors[n]!;
    for (let f = 0; f < ids.length && ids[f]! < size; f++) scratch[ids[f]! * classes + labels[n]!]! += values[f]!;
  }
  const norms = new Float64Array(classes);
  for (let f = 0; f < size; f++) for (let c = 0; c < classes; c++) norms[c]! += scratch[f * classes + c]! ** 2;
  // postings: for each feature, the entries whose centroid has it and its weight there
  const starts = new Int32Array(size + 1);
  for (let f = 0; f < size; f++) {
    let m = 0;
    for (let c = 0; c < classes; c++) if (scratch[f * classes + c] !== 0) m++;
    starts[f + 1] = starts[f]! + m;
  }
  const entries = new Int32Array(starts[size]!);
  const weights = new Float32Array(starts[size]!);
  for (let f = 0, at = 0; f < size; f++) {
    for (let c = 0; c < classes; c++) {
      const w = scratch[f * classes + c]!;
      if (w !== 0) {
        entries[at] = c;
        weights[at++] = w / Math.sqrt(norms[c]!);
      }
    }
  }
  const out = new Int32Array(vectors.length * k);
  const s = new Float64Array(classes);
  for (const n of examples) {
    const { ids, values } = vectors[n]!;
    s.fill(0);
    for (let f = 0; f < ids.length && ids[f]! < size; f++) {
      const v = values[f]!;
      for (let j = starts[ids[f]!]!; j < starts[ids[f]! + 1]!; j++) s[entries[j]!]! += v * weights[j]!;
    }
    s[labels[n]!] = Infinity; // its own entry is always one
    topK(s, k, out.subarray(n * k, n * k + k));
  }
  return out;
}

/** A 32-bit hash of (value, salt): murmur3's finalizer. */
function mix(value: number, salt: number): number {
  let h = (value ^ Math.imul(salt, 0x9e3779b9)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** The indexes of the k largest values of s, into out (in no particular order). */
function topK(s: Float64Array, k: number, out: Int32Array): void {
  let filled = 0;
  let minAt = 0;
  for (let c = 0; c < s.length; c++) {
    if (filled < k) {
      out[filled++] = c;
      if (filled === k) minAt = argminOf(s, out);
    } else if (s[c]! > s[out[minAt]!]!) {
      out[minAt] = c;
      minAt = argminOf(s, out);
    }
  }
}

function argminOf(s: Float64Array, idx: Int32Array): number {
  let m = 0;
  for (let a = 1; a < idx.length; a++) if (s[idx[a]!]! < s[idx[m]!]!) m = a;
  return m;
}
