/**
 * A multinomial logistic regression over the analyzer's terms, trained on the entries' examples when the
 * retriever is built. BM25 says how well a question matches an entry's examples; this model learns which
 * terms tell confusable entries apart ("shopping_list" vs "shopping_list_update"). See docs/engine.md.
 */

/** Training work is examples × entries × epochs × terms; above this many example-entry pairs there is no model. */
export const MAX_TRAINING_PAIRS = 5_000_000;

const EPOCHS = 5;
const LEARNING_RATE = 5; // divided by (1 + epoch)
/** Gradients smaller than this are skipped: most entries are already far from most examples after one epoch. */
const MIN_GRADIENT = 1e-3;

export interface Classifier {
  /** Probability of each entry (by index) for the question's terms; sums to 1. */
  probabilities(terms: string[]): Float64Array;
}

/** `examples[i]` holds the analyzed examples of entry i. Undefined when there is nothing (or too much) to learn. */
export function trainClassifier(examples: string[][][]): Classifier | undefined {
  const classes = examples.length;
  const vocabulary = new Map<string, number>();
  const features: Int32Array[] = [];
  const labels: number[] = [];
  examples.forEach((list, entry) => {
    for (const terms of list) {
      const ids = new Set<number>();
      for (const term of terms) {
        let id = vocabulary.get(term);
        if (id === undefined) vocabulary.set(term, (id = vocabulary.size));
        ids.add(id);
      }
      if (ids.size) {
        features.push(Int32Array.from(ids));
        labels.push(entry);
      }
    }
  });
  if (classes < 2 || !features.length || features.length * classes > MAX_TRAINING_PAIRS) return undefined;

  // weights[term * classes + entry]: a question's scores are the sum of its terms' rows.
  const weights = new Float32Array(vocabulary.size * classes);
  const bias = new Float32Array(classes);
  const z = new Float64Array(classes);
  const scores = (ids: ArrayLike<number>): Float64Array => {
    const scale = 1 / Math.sqrt(ids.length || 1); // long and short questions on one scale
    z.set(bias);
    for (let k = 0; k < ids.length; k++) {
      const row = ids[k]! * classes;
      for (let c = 0; c < classes; c++) z[c]! += weights[row + c]! * scale;
    }
    let max = -Infinity;
    for (let c = 0; c < classes; c++) max = Math.max(max, z[c]!);
    let sum = 0;
    for (let c = 0; c < classes; c++) sum += z[c] = Math.exp(z[c]! - max);
    for (let c = 0; c < classes; c++) z[c]! /= sum;
    return z;
  };

  // Stochastic gradient descent on the cross-entropy, examples in a seeded shuffled order (repeatable).
  const order = Int32Array.from(features.keys());
  let seed = 1;
  const random = (): number => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
  for (let epoch = 0; epoch < EPOCHS; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    const rate = LEARNING_RATE / (1 + epoch);
    for (const n of order) {
      const ids = features[n]!;
      const p = scores(ids);
      const scale = 1 / Math.sqrt(ids.length);
      for (let c = 0; c < classes; c++) {
        const gradient = p[c]! - (c === labels[n] ? 1 : 0);
        if (Math.abs(gradient) < MIN_GRADIENT) continue;
        bias[c]! -= rate * gradient;
        const step = rate * gradient * scale;
        for (let k = 0; k < ids.length; k++) weights[ids[k]! * classes + c]! -= step;
      }
    }
  }

  return {
    probabilities(terms) {
      const ids: number[] = [];
      for (const term of new Set(terms)) {
        const id = vocabulary.get(term);
        if (id !== undefined) ids.push(id);
      }
      return Float64Array.from(scores(ids));
    },
  };
}
