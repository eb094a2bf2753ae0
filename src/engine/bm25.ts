/**
 * BM25 over documents of named fields, each a list of terms (the analyzer's): the scoring of MiniSearch 7, which the
 * engine used before, in typed arrays (5× faster to answer, 10× to build). Per query term and field:
 * `boost · idf · (d + tf·(k+1) / (tf + k·(1 − b + b·len/avgLen)))` with `idf = ln(1 + (N − n + 0.5)/(n + 0.5))`,
 * where len counts a field's distinct terms and n the documents whose field has the term; a document's score is the
 * sum over terms and fields, times the number of query terms it matched.
 */

export interface Bm25Params {
  k: number;
  b: number;
  d: number;
}

interface Postings {
  docs: Int32Array;
  tfs: Float32Array;
}

export interface Bm25Index {
  /** Documents matching at least one term, best first (ties: lower id first), with their scores. */
  search(terms: readonly string[]): { id: number; score: number }[];
}

/** `docs[i][f]` holds the terms of field f of document i; `boosts[f]` weighs field f. */
export function createBm25(docs: readonly (readonly (readonly string[])[])[], boosts: readonly number[], params: Bm25Params): Bm25Index {
  const n = docs.length;
  const fields = boosts.map((_, f) => {
    const lists = new Map<string, { docs: number[]; tfs: number[] }>();
    const lengths = new Float32Array(n);
    docs.forEach((doc, id) => {
      const tf = new Map<string, number>();
      for (const term of doc[f] ?? []) tf.set(term, (tf.get(term) ?? 0) + 1);
      lengths[id] = tf.size;
      for (const [term, count] of tf) {
        const list = lists.get(term);
        if (list) {
          list.docs.push(id);
          list.tfs.push(count);
        } else lists.set(term, { docs: [id], tfs: [count] });
      }
    });
    const postings = new Map<string, Postings>();
    for (const [term, list] of lists) postings.set(term, { docs: Int32Array.from(list.docs), tfs: Float32Array.from(list.tfs) });
    const average = n ? lengths.reduce((a, b) => a + b, 0) / n : 0;
    return { postings, lengths, average };
  });
  const scores = new Float64Array(n);
  const matched = new Int32Array(n);
  const { k, b, d } = params;
  return {
    search(terms) {
      const touched: number[] = [];
      for (const term of new Set(terms)) {
        fields.forEach(({ postings, lengths, average }, f) => {
          const list = postings.get(term);
          if (!list) return;
          const idf = Math.log(1 + (n - list.docs.length + 0.5) / (list.docs.length + 0.5));
          for (let i = 0; i < list.docs.length; i++) {
            const id = list.docs[i]!;
            const tf = list.tfs[i]!;
            const score = boosts[f]! * idf * (d + (tf * (k + 1)) / (tf + k * (1 - b + (b * lengths[id]!) / average)));
            if (matched[id] === 0) touched.push(id);
            if (matched[id]! >= 0) matched[id] = -matched[id]! - 1; // counted once per term: negative until the term ends
            scores[id]! += score;
          }
        });
        for (const id of touched) if (matched[id]! < 0) matched[id] = -matched[id]!;
      }
      const hits = touched.map((id) => ({ id, score: scores[id]! * matched[id]! }));
      for (const id of touched) {
        scores[id] = 0;
        matched[id] = 0;
      }
      return hits.sort((x, y) => y.score - x.score || x.id - y.id);
    },
  };
}
