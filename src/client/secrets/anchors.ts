import { isInvisible, isSpace } from './views.js';

/**
 * Characters from the most to the least common in what a service sends (prose, JSON); those not listed (other
 * symbols, accented letters) are rarer still. A needle is looked for around its rarest characters.
 */
const COMMON = ' etaoinsrhldcu"m,fpgwy:b.v-10k2_/3456789\'TSAICEMPBRDNOLHFWGYUKVJXxjqzQZ()';

const commonness = (c: string): number => {
  const i = COMMON.indexOf(c);
  return i < 0 ? 0 : COMMON.length - i;
};

/** A character as a text may write it: as it is, or in either case (each form of one code unit, as `lower` keeps it). */
export function casesOf(c: string, caseless: boolean): string[] {
  if (!caseless) return [c];
  return [...new Set([c, c.toLowerCase(), c.toUpperCase()].filter((form) => form.length === c.length))];
}

/** Whether a character may anchor a needle: fold leaves it as it is (no whitespace, nothing invisible). */
const anchorable = (c: string): boolean => !isSpace(c.charCodeAt(0)) && !isInvisible(c.charCodeAt(0));

/**
 * Characters to look for in a text so that each needle, wherever it stands (in any casing when caseless, with
 * invisible characters inside), has one of them in it: a few rare ones, shared by the needles where they can be.
 * `unanchored`: the needles with no such character (none of 2 or more characters once folded), searched as they are.
 */
export function anchorsOf(needles: readonly { text: string; caseless: boolean }[]): { chars: string[]; unanchored: number[] } {
  const chosen = new Set<string>();
  const unanchored: number[] = [];
  needles.forEach(({ text, caseless }, i) => {
    const candidates = [...new Set(text)].filter(anchorable).map((c) => casesOf(c, caseless));
    if (candidates.length === 0) return void unanchored.push(i);
    if (candidates.some((forms) => forms.every((f) => chosen.has(f)))) return;
    // a form already looked for costs nothing more; a new one its commonness
    const cost = (forms: string[]): number => forms.reduce((sum, f) => sum + (chosen.has(f) ? 0 : 1 + commonness(f)), 0);
    const best = candidates.reduce((a, b) => (cost(b) < cost(a) ? b : a));
    for (const f of best) chosen.add(f);
  });
  return { chars: [...chosen], unanchored };
}
