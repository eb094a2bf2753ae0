import { isUnspaced } from './analyzer.js';

/**
 * The classifier's features: two channels, each TF-IDF weighted (1 + ln tf, smooth idf) and scaled to unit length,
 * side by side in one sparse vector. The word channel holds the analyzer's terms (stems and bigrams); the character
 * channel the 3- to 5-letter pieces of each word with a space at either end (" pay", "pay ", " bill"), so a misspelt or
 * inflected word still shares most of its pieces with the right one. A word in a script without spaces also gives
 * its single characters and pairs of characters: Japanese or Chinese texts segmented differently still meet.
 */

export interface SparseVector {
  ids: Int32Array;
  values: Float32Array;
}

/** One text as the feature space reads it: its words (for the characters) and its terms. */
export interface Analyzed {
  words: readonly string[];
  terms: readonly string[];
}

const MIN_GRAM = 3;
const MAX_GRAM = 5;

/** The character pieces of words: 3- to 5-grams of " word " (a shorter word once, whole). */
export function charGrams(words: readonly string[]): string[] {
  const grams: string[] = [];
  for (const word of words) {
    const padded = ` ${word} `;
    for (let n = MIN_GRAM; n <= MAX_GRAM; n++) {
      if (padded.length < n) {
        if (n === MIN_GRAM) grams.push(padded);
        break;
      }
      for (let i = 0; i + n <= padded.length; i++) grams.push(padded.slice(i, i + n));
    }
    if (isUnspaced(word)) {
      const chars = Array.from(word);
      for (let i = 0; i < chars.length; i++) grams.push(chars[i]!, ...(i + 1 < chars.length ? [chars[i]! + chars[i + 1]!] : []));
    }
  }
  return grams;
}

export interface FeatureSpace {
  /** Number of features (word terms first, then character pieces). */
  size: number;
  /** Number of word-term features: ids below it are terms, from it on character pieces. */
  wordFeatures: number;
  vector(text: Analyzed): SparseVector;
}

/** The feature space of a set of texts (the examples): its vocabulary and each feature's idf; and their vectors. */
export function fitFeatures(texts: readonly Analyzed[]): { space: FeatureSpace; vectors: SparseVector[] } {
  const words = new Map<string, number>();
  const chars = new Map<string, number>();
  const wordDf: number[] = [];
  const charDf: number[] = [];
  const lastText: number[] = []; // per char id, the last text that counted it (a text counts a feature once)
  const lastWordText: number[] = [];
  // each text's items as ids of its channel, assigned as they first come
  const idsOf = (items: readonly string[], ids: Map<string, number>, df: number[], last: number[], text: number): Int32Array => {
    const out = new Int32Array(items.length);
    items.forEach((item, i) => {
      let id = ids.get(item);
      if (id === undefined) {
        ids.set(item, (id = df.length));
        df.push(0);
        last.push(-1);
      }
      if (last[id] !== text) {
        last[id] = text;
        df[id]!++;
      }
      out[i] = id;
    });
    return out;
  };
  const seen = texts.map((t, i) => [idsOf(t.terms, words, wordDf, lastWordText, i), idsOf(charGrams(t.words), chars, charDf, lastText, i)] as const);
  const n = texts.length;
  const offset = wordDf.length;
  const idf = Float32Array.from([...wordDf, ...charDf], (df) => Math.log((n + 1) / (df + 1)) + 1);

  // term frequencies of one text, by feature id: counted in a scratch array, cleared after each use
  const tf = new Float64Array(idf.length);
  const channel = (ids: ArrayLike<number>, shift: number, outIds: number[], outValues: number[]): void => {
    const start = outIds.length;
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i]! + shift;
      if (tf[id] === 0) outIds.push(id);
      tf[id]!++;
    }
    let norm = 0;
    for (let i = start; i < outIds.length; i++) {
      const id = outIds[i]!;
      const v = (1 + Math.log(tf[id]!)) * idf[id]!;
      tf[id] = 0;
      outValues.push(v);
      norm += v * v;
    }
    norm = Math.sqrt(norm);
    for (let i = start; i < outValues.length; i++) outValues[i]! /= norm;
  };
  const vectorOf = (termIds: ArrayLike<number>, pieceIds: ArrayLike<number>): SparseVector => {
    const ids: number[] = [];
    const values: number[] = [];
    channel(termIds, 0, ids, values);
    channel(pieceIds, offset, ids, values);
    return { ids: Int32Array.from(ids), values: Float32Array.from(values) };
  };
  const known = (items: readonly string[], ids: Map<string, number>): number[] => {
    const out: number[] = [];
    for (const item of items) {
      const id = ids.get(item);
      if (id !== undefined) out.push(id);
    }
    return out;
  };
  return {
    space: { size: idf.length, wordFeatures: offset, vector: (text) => vectorOf(known(text.terms, words), known(charGrams(text.words), chars)) },
    vectors: seen.map(([terms, pieces]) => vectorOf(terms, pieces)),
  };
}
