// Seeded keyboard typos for bench/engine-quality.mjs: in about half of the words of 4+ letters, one of a letter
// dropped, two neighbours swapped, a letter doubled, or a letter replaced by a neighbouring QWERTY key.
const ROWS = ['qwertyuiop', 'asdfghjkl', 'zxcvbnm'];
/** Each letter's neighbours on a QWERTY keyboard: left, right, and the touching keys of the rows above and below. */
const NEIGHBOURS = new Map();
ROWS.forEach((row, r) => {
  [...row].forEach((ch, i) => {
    const near = [row[i - 1], row[i + 1], ROWS[r - 1]?.[i], ROWS[r - 1]?.[i + 1], ROWS[r + 1]?.[i - 1], ROWS[r + 1]?.[i]];
    NEIGHBOURS.set(ch, near.filter(Boolean));
  });
});

/** mulberry32: a seeded generator of numbers in [0, 1). */
export function seeded(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One typo in a word. */
export function typo(word, random) {
  const i = Math.floor(random() * word.length);
  switch (Math.floor(random() * 4)) {
    case 0:
      return word.slice(0, i) + word.slice(i + 1);
    case 1: {
      const j = Math.min(i, word.length - 2);
      return word.slice(0, j) + word[j + 1] + word[j] + word.slice(j + 2);
    }
    case 2:
      return word.slice(0, i + 1) + word[i] + word.slice(i + 1);
    default: {
      const near = NEIGHBOURS.get(word[i].toLowerCase());
      return near ? word.slice(0, i) + near[Math.floor(random() * near.length)] + word.slice(i + 1) : word;
    }
  }
}

/** The text with a typo in each word of 4+ letters with probability `rate`. */
export const withTypos = (text, random, rate = 0.5) => text.replace(/\p{L}{4,}/gu, (w) => (random() < rate ? typo(w, random) : w));
