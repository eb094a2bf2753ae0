// Seeded keyboard typos for tests (bench/typos.mjs is the bench's own): in about half of the words of 4+ letters, a
// letter dropped, two neighbours swapped, a letter doubled, or a neighbouring key on a QWERTY keyboard.
const NEAR: Record<string, string> = {
  q: 'wa', w: 'qesa', e: 'wrds', r: 'etfd', t: 'rygf', y: 'tuhg', u: 'yijh', i: 'uokj', o: 'iplk', p: 'ol',
  a: 'qswz', s: 'awedxz', d: 'serfcx', f: 'drtgvc', g: 'ftyhbv', h: 'gyujnb', j: 'huikmn', k: 'jiolm', l: 'kop',
  z: 'asx', x: 'zsdc', c: 'xdfv', v: 'cfgb', b: 'vghn', n: 'bhjm', m: 'njk',
};

/** A generator of numbers in [0, 1) from a seed (a linear congruential generator: enough for test data). */
export function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

export function withTypos(text: string, random: () => number): string {
  return text.replace(/\p{L}{4,}/gu, (w) => {
    if (random() >= 0.5) return w;
    const i = Math.floor(random() * w.length);
    const kind = Math.floor(random() * 4);
    if (kind === 0) return w.slice(0, i) + w.slice(i + 1);
    if (kind === 1) {
      const j = Math.min(i, w.length - 2);
      return w.slice(0, j) + w[j + 1] + w[j] + w.slice(j + 2);
    }
    if (kind === 2) return w.slice(0, i + 1) + w[i] + w.slice(i + 1);
    const near = NEAR[w[i]!.toLowerCase()];
    return near ? w.slice(0, i) + near[Math.floor(random() * near.length)] + w.slice(i + 1) : w;
  });
}
