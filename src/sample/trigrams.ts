/** Tokens are hashes of 28 bits: room for a rank of 25 bits beside one in a double (near.ts). */
export const TOKEN_BITS = 28;
const TOKEN_MASK = (1 << TOKEN_BITS) - 1;

/** A 28-bit hash of three UTF-16 code units (murmur3's finalizer over their mix). */
function hash3(a: number, b: number, c: number): number {
  let h = Math.imul(a, 0x9e3779b1) ^ Math.imul(b + 0x632be5ab, 0x85ebca77) ^ Math.imul(c + 0x1b873593, 0xc2b2ae3d);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h & TOKEN_MASK;
}

/**
 * The character 3-grams of a folded text, with a space before and after it (so a word's first and last letters
 * count as much as its middle ones): `pay` gives ` pa`, `pay`, `ay `. As sorted distinct 28-bit hashes, in `into`
 * when it is long enough (a view of it: valid until it is used again), else in a new array.
 */
export function trigrams(text: string, into?: Int32Array): Int32Array {
  const n = text.length + 2;
  if (n < 3) return new Int32Array(0);
  const code = (i: number): number => (i === 0 || i === n - 1 ? 0x20 : text.charCodeAt(i - 1));
  const out = into !== undefined && into.length >= n - 2 ? into.subarray(0, n - 2) : new Int32Array(n - 2);
  for (let i = 0; i + 2 < n; i++) out[i] = hash3(code(i), code(i + 1), code(i + 2));
  out.sort();
  let k = 0;
  for (let i = 0; i < out.length; i++) if (i === 0 || out[i] !== out[i - 1]) out[k++] = out[i]!;
  return out.subarray(0, k);
}

/** How many tokens two sorted sets share. */
export function overlap(a: Int32Array, b: Int32Array): number {
  let n = 0;
  for (let i = 0, j = 0; i < a.length && j < b.length; ) {
    if (a[i] === b[j]) {
      n++;
      i++;
      j++;
    } else if (a[i]! < b[j]!) i++;
    else j++;
  }
  return n;
}

/** Jaccard similarity of two sorted token sets: shared / all. */
export function jaccard(a: Int32Array, b: Int32Array): number {
  const shared = overlap(a, b);
  const all = a.length + b.length - shared;
  return all === 0 ? 1 : shared / all;
}
