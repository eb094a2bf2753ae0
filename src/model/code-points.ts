/**
 * Sets of code points for the translation of JavaScript regular expressions into RE2's syntax (src/model/regex.ts):
 * JavaScript's classes as ranges, and how a set is written for RE2.
 */

/** Code points `lo` to `hi`, both included. */
export type Range = readonly [number, number];

const MAX = 0x10ffff;

export const DIGITS: Range[] = [[0x30, 0x39]];
export const WORD: Range[] = [[0x30, 0x39], [0x41, 0x5a], [0x5f, 0x5f], [0x61, 0x7a]];
/** With `i`, JavaScript's \w also holds the two characters whose case folding is a word letter (ſ → s, K → k). */
export const WORD_FOLDED: Range[] = [...WORD, [0x17f, 0x17f], [0x212a, 0x212a]];
/** JavaScript's \s: WhiteSpace and LineTerminator. */
export const SPACES: Range[] = [[0x09, 0x0d], [0x20, 0x20], [0xa0, 0xa0], [0x1680, 0x1680], [0x2000, 0x200a], [0x2028, 0x2029], [0x202f, 0x202f], [0x205f, 0x205f], [0x3000, 0x3000], [0xfeff, 0xfeff]];
/** What JavaScript's `.` does not match (without `s`). */
export const LINE_TERMINATORS: Range[] = [[0x0a, 0x0a], [0x0d, 0x0d], [0x2028, 0x2029]];

export function merged(ranges: readonly Range[]): Range[] {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const out: [number, number][] = [];
  for (const [lo, hi] of sorted) {
    const last = out.at(-1);
    if (last !== undefined && lo <= last[1] + 1) last[1] = Math.max(last[1], hi);
    else out.push([lo, hi]);
  }
  return out;
}

export function complement(ranges: readonly Range[]): Range[] {
  const out: Range[] = [];
  let next = 0;
  for (const [lo, hi] of merged(ranges)) {
    if (lo > next) out.push([next, lo - 1]);
    next = hi + 1;
  }
  if (next <= MAX) out.push([next, MAX]);
  return out;
}

const size = (ranges: readonly Range[]): number => ranges.reduce((n, [lo, hi]) => n + hi - lo + 1, 0);

export const hex = (cp: number): string => `\\x{${cp.toString(16)}}`;
const rangeText = ([lo, hi]: Range): string => (lo === hi ? hex(lo) : `${hex(lo)}-${hex(hi)}`);

function bracket(ranges: readonly Range[], inverted: boolean): string {
  if (ranges.length === 0) return inverted ? `[${hex(0)}-${hex(MAX)}]` : `[^${hex(0)}-${hex(MAX)}]`; // RE2 has no `[]`
  return `[${inverted ? '^' : ''}${ranges.map(rangeText).join('')}]`;
}

/**
 * A JavaScript class as RE2 reads it. With `i`, JavaScript matches a character when one of its case variants is in the
 * class (the closure of the set; `[^…]` matches when none is), and so does RE2 with `(?i)`. A class is the union of
 * `exact` (sets that already hold every case variant of their members: JavaScript's escapes, and Unicode properties
 * computed with `i`) and `folded` (characters and ranges as written, for RE2 to fold). `exact` is written inside
 * `(?-i:…)`, as the smaller of itself and its complement: RE2's folding costs time in the code points it folds.
 */
export function classText(exact: readonly Range[], folded: readonly Range[], inverted: boolean, foldCase: boolean): string {
  if (!foldCase || folded.length === 0) {
    let body = merged([...exact, ...folded]);
    let not = inverted;
    const other = complement(body);
    if (size(other) < size(body)) [body, not] = [other, !not];
    return foldCase ? `(?-i:${bracket(body, not)})` : bracket(body, not);
  }
  if (inverted || exact.length === 0) return bracket(merged([...exact, ...folded]), inverted);
  return `(?:${classText(exact, [], false, true)}|${bracket(merged(folded), false)})`;
}

// Every code point but the surrogates, in order: a Unicode property's ranges are the runs `\p{…}+` finds in it.
let everyCodePoint: string | undefined;
function codePoints(): string {
  if (everyCodePoint === undefined) {
    const parts: string[] = [];
    for (let start = 0; start <= MAX; start += 4096) {
      const chunk: number[] = [];
      for (let cp = start; cp < Math.min(start + 4096, MAX + 1); cp++) if (cp < 0xd800 || cp > 0xdfff) chunk.push(cp);
      parts.push(String.fromCodePoint(...chunk));
    }
    everyCodePoint = parts.join('');
  }
  return everyCodePoint;
}

const properties = new Map<string, Range[]>();

/**
 * The code points a property escape (`\p{Lu}`, `\P{Script=Greek}`, as JavaScript accepted it) matches, with JavaScript's
 * `i` or without: computed by JavaScript itself, once per escape, so every property name JavaScript knows means what
 * it means there, case variants included.
 */
export function propertySet(escape: string, foldCase: boolean): Range[] {
  const key = `${foldCase ? 'i' : ''}${escape}`;
  let ranges = properties.get(key);
  if (ranges !== undefined) return ranges;
  ranges = [];
  const all = codePoints();
  // a run of members is a range: the string holds every code point in order
  for (const m of all.matchAll(new RegExp(`${escape}+`, foldCase ? 'giu' : 'gu'))) {
    const last = m[0].codePointAt(m[0].length - (/[\udc00-\udfff]$/.test(m[0]) ? 2 : 1))!;
    ranges.push([all.codePointAt(m.index)!, last]);
  }
  const single = new RegExp(`^${escape}$`, foldCase ? 'iu' : 'u');
  for (let cp = 0xd800; cp <= 0xdfff; cp++) if (single.test(String.fromCharCode(cp))) ranges.push([cp, cp]);
  ranges = merged(ranges);
  properties.set(key, ranges);
  return ranges;
}
