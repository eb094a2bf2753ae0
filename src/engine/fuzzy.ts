/**
 * Fuzzy term matching: a word of a question that the knowledge base never uses is read as the most frequent word
 * of the knowledge base one edit away (a letter dropped, added, changed or two neighbours swapped), so "recieve",
 * "bilss" and "pasword" find their entries. A SymSpell-style index of the vocabulary with one letter deleted makes
 * a look-up a handful of map reads. See docs/engine.md#typos.
 */

/** Words shorter than this are left as they are: at 3 letters one edit away is too many other words. */
export const MIN_FUZZY_LENGTH = 4;

export type Corrector = (word: string) => string;

/** Whether a and b are at most one edit apart (Damerau: a swap of two neighbours is one edit). */
export function oneEditApart(a: string, b: string): boolean {
  if (a === b) return true;
  const la = a.length;
  const lb = b.length;
  if (Math.abs(la - lb) > 1) return false;
  let i = 0;
  while (i < la && i < lb && a[i] === b[i]) i++;
  if (la === lb) return a.slice(i + 1) === b.slice(i + 1) || (a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2));
  return la > lb ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}

const deletions = (w: string): string[] => Array.from(w, (_, i) => w.slice(0, i) + w.slice(i + 1));

/** A corrector for the vocabulary of these words (each occurrence counts once towards a word's frequency). */
export function createCorrector(words: Iterable<string>): Corrector {
  const frequency = new Map<string, number>();
  for (const w of words) frequency.set(w, (frequency.get(w) ?? 0) + 1);
  const byDeletion = new Map<string, string[]>();
  const add = (key: string, word: string): void => {
    const list = byDeletion.get(key);
    if (!list) byDeletion.set(key, [word]);
    else if (!list.includes(word)) list.push(word);
  };
  for (const w of frequency.keys()) {
    if (w.length < MIN_FUZZY_LENGTH - 1) continue;
    add(w, w);
    for (const d of deletions(w)) add(d, w);
  }
  const cache = new Map<string, string>();
  return (word) => {
    if (word.length < MIN_FUZZY_LENGTH || frequency.has(word) || /\d/.test(word)) return word;
    const cached = cache.get(word);
    if (cached !== undefined) return cached;
    let best = word;
    let bestCount = 0;
    for (const key of [word, ...deletions(word)]) {
      for (const candidate of byDeletion.get(key) ?? []) {
        const count = frequency.get(candidate)!;
        if (count > bestCount && oneEditApart(word, candidate)) {
          best = candidate;
          bestCount = count;
        }
      }
    }
    if (cache.size < 100_000) cache.set(word, best);
    return best;
  };
}
