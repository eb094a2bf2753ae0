import { anchorsOf, casesOf } from './anchors.js';
import { Literal } from './literal.js';
import { decode, FAMILIES, fold, isInvisible, isSpace, lower, type Derived } from './views.js';

/**
 * How many times a text is decoded at most (one family of escapes each time): a JSON body quoted as a JSON string in
 * an error message that a proxy wrote into an HTML page is three. A segment is seen in every order of the families it
 * holds: 1 + 3 + 9 + 27 views at the very most (fewer where orders give the same view), each linear in the segment.
 */
const MAX_DECODES = 3;

export interface Needle<K> {
  /** Folded (views.ts); in lower case when caseless. */
  text: string;
  kind: K;
  /** Found in any casing: searched for in the text in lower case. */
  caseless?: boolean;
}

export interface Span<K> {
  start: number;
  end: number;
  kind: K;
}

/** With secrets that hold a space: whitespace that fold changes. */
const SPACES = String.raw`[\t-\r\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]| {2}`;
/** With secrets that hold a `"` or a `+`: one doubled. */
const QUOTES = '""';
const PLUSES = String.raw`\+\+`;

/** Characters an escape is written with: `\u00e9`, `\u{e9}`, `&eacute;`, `&#xE9;`, `%C3%A9`, `\"`, `\/`. */
const SYNTAX = String.raw`\{}"'/&#;%`;

/** In `within`: a character that may be part of an escape; one of a secret. */
const SYNTAX_CHAR = 1;
const SECRET_CHAR = 2;

const BACKSLASH = 92;
const AMPERSAND = 38;

const isHex = (c: number): boolean => (c >= 48 && c <= 57) || ((c | 32) >= 97 && (c | 32) <= 102);
const isAlnum = (c: number): boolean => (c >= 48 && c <= 57) || ((c | 32) >= 97 && (c | 32) <= 122);

/**
 * Finds secrets (as folded needles) in a text, as it is and in every view of it (views.ts), in time linear in the
 * text. The text is not decoded whole: a secret stands in a run of characters that are each part of an escape or of
 * the secret itself (a "segment"), so only the segments around an escape or a rare character of a secret (an
 * "anchor", anchors.ts), long enough to hold the shortest secret, are looked at closer: folded (invisible characters
 * dropped), decoded, in lower case. In prose a segment is a word: a reply without a secret costs a few native scans
 * (indexOf), whatever escapes it holds.
 */
export class Finder<K> {
  readonly #needles: readonly { literal: Literal; kind: K; caseless: boolean }[];
  /** Needles with no anchor (anchors.ts): searched in the text as it is. */
  readonly #unanchored: readonly { literal: Literal; kind: K }[];
  /** Characters that start a segment: those escapes start with, then the anchors. */
  readonly #triggers: readonly string[];
  /** For each trigger: whether it starts a segment wherever it stands (an anchor), not only where it starts an escape. */
  readonly #anchor: readonly boolean[];
  readonly #shortest: number;
  /** SECRET_CHAR, SYNTAX_CHAR, or 0 for a code unit that stands in no secret, in any form: it bounds the segments. */
  readonly #within = new Uint8Array(0x10000);
  /** Whether a secret holds a space (then every whitespace character may stand inside one). */
  readonly #spaced: boolean;
  /** Fold's special characters that matter to these secrets (SPACES, QUOTES, PLUSES), when some do. */
  readonly #folds: RegExp | undefined;

  constructor(needles: readonly Needle<K>[]) {
    this.#needles = needles.map((n) => ({ literal: new Literal(n.text), kind: n.kind, caseless: n.caseless === true }));
    this.#shortest = Math.min(...needles.map((n) => n.text.length));
    const anchors = anchorsOf(this.#needles.map((n) => ({ text: n.literal.text, caseless: n.caseless })));
    this.#unanchored = anchors.unanchored.map((i) => this.#needles[i]!);
    const escapes = ['\\', '&', '%'].filter((c) => !anchors.chars.includes(c));
    this.#triggers = [...escapes, ...anchors.chars];
    this.#anchor = this.#triggers.map((_, i) => i >= escapes.length);
    const within = this.#within;
    // an invisible character may be inside a secret (fold drops it): it joins the segment
    for (let c = 0; c < 0x10000; c++) if (isAlnum(c) || isInvisible(c)) within[c] = SYNTAX_CHAR;
    for (const char of SYNTAX) within[char.charCodeAt(0)] = SYNTAX_CHAR;
    for (const { text, caseless } of needles) for (const char of text) for (const form of casesOf(char, caseless === true)) for (let i = 0; i < form.length; i++) within[form.charCodeAt(i)] = SECRET_CHAR;
    this.#spaced = needles.some((n) => n.text.includes(' '));
    if (this.#spaced) for (let c = 0; c < 0x10000; c++) if (isSpace(c)) within[c] = SECRET_CHAR;
    const folds = [...(this.#spaced ? [SPACES] : []), ...(needles.some((n) => n.text.includes('"')) ? [QUOTES] : []), ...(needles.some((n) => n.text.includes('+')) ? [PLUSES] : [])];
    this.#folds = folds.length > 0 ? new RegExp(folds.join('|'), 'g') : undefined;
  }

  /** For each code unit, not 0 when it may stand in a secret in some view of a text (a segment runs over such characters). */
  get joins(): Uint8Array {
    return this.#within;
  }

  /** Whether `text` holds a secret, as it is or in a view. */
  holds(text: string): boolean {
    if (text.length < this.#shortest) return false;
    for (const { literal } of this.#unanchored) if (literal.in(text)) return true;
    return this.#segments(text, (start, end) => this.#viewsHold(text.slice(start, end), 0, new Set()));
  }

  /** Where the secrets stand in `text`: as they are, and in views of its segments. Spans may overlap. */
  spans(text: string): Span<K>[] {
    const spans: Span<K>[] = [];
    for (const { literal, kind } of this.#unanchored) for (const i of literal.every(text)) spans.push({ start: i, end: i + literal.text.length, kind });
    this.#segments(text, (start, end) => {
      for (const span of this.#viewSpans({ text: text.slice(start, end), from: undefined })) spans.push({ start: span.start + start, end: span.end + start, kind: span.kind });
      return false;
    });
    return spans;
  }

  /**
   * Calls `visit` on each segment around an anchor, an escape (or a character fold changes), long enough to hold a
   * secret, until it returns true. Every secret has an anchor in it (unless it is searched as it is), in some casing or
   * escaped, so every segment that may hold one is visited. An escape that stands for a character in no secret (`\"`
   * or `\n` beside a code of letters) is passed over: no secret can stand across it.
   */
  #segments(text: string, visit: (start: number, end: number) => boolean): boolean {
    let covered = 0; // the end of the last segment visited
    const triggers = this.#triggers;
    const next = triggers.map((c) => text.indexOf(c));
    for (;;) {
      let k = -1;
      for (let i = 0; i < next.length; i++) if (next[i]! >= 0 && (k < 0 || next[i]! < next[k]!)) k = i;
      if (k < 0) break;
      const p = next[k]!;
      if (this.#anchor[k] || this.#matters(text, p)) {
        const [start, end] = this.#segment(text, p, p + 1);
        if (end - start >= this.#shortest && visit(start, end)) return true;
        covered = end;
      }
      const from = Math.max(p + 1, covered);
      for (let i = 0; i < next.length; i++) if (next[i]! >= 0 && next[i]! < from) next[i] = text.indexOf(triggers[i]!, from);
    }
    const folds = this.#folds;
    if (folds === undefined) return false;
    folds.lastIndex = 0;
    for (let m = folds.exec(text); m !== null; m = folds.exec(text)) {
      const [start, end] = this.#segment(text, m.index, m.index + m[0].length);
      if (end - start >= this.#shortest && visit(start, end)) {
        folds.lastIndex = 0;
        return true;
      }
      folds.lastIndex = end;
    }
    return false;
  }

  /** The segment around `text.slice(start, end)`: as far as each side goes with characters that may stand in a secret. */
  #segment(text: string, start: number, end: number): [number, number] {
    const within = this.#within;
    while (start > 0 && within[text.charCodeAt(start - 1)]! > 0) start--;
    while (end < text.length && within[text.charCodeAt(end)]! > 0) end++;
    return [start, end];
  }

  /** Whether the escape character at `p` may stand for a character of a secret, or start one more level of escapes. */
  #matters(text: string, p: number): boolean {
    const next = text.charCodeAt(p + 1);
    switch (text.charCodeAt(p)) {
      case BACKSLASH:
        switch (next) {
          case 110: case 114: case 116: // \n \r \t
            return this.#spaced;
          case 34: case 39: case 47: case 98: case 102: // \" \' \/ \b \f
            return this.#within[next === 98 ? 8 : next === 102 ? 12 : next] === SECRET_CHAR;
          default: // \u, \x, \\ (which may start a level below), or no escape at all
            return next === next; // not NaN: not the last character
        }
      case AMPERSAND:
        return next === 35 || isAlnum(next);
      default: // %
        return next === 117 || next === 85 || (isHex(next) && isHex(text.charCodeAt(p + 2)));
    }
  }

  /**
   * Whether a secret is in one of the views of a segment: as it is, then decoded again and again, a family at a time.
   * A view that two orders of decoding make alike (JSON then HTML, HTML then JSON) is searched once.
   */
  #viewsHold(level: string, depth: number, seen: Set<string>): boolean {
    const view = fold(level, false)?.text ?? level;
    let lowered: string | undefined;
    for (const { literal, caseless } of this.#needles) if (literal.in(caseless ? (lowered ??= lower(view)) : view)) return true;
    if (depth === MAX_DECODES) return false;
    for (const family of FAMILIES) {
      const next = decode(level, family, false)?.text;
      if (next === undefined || seen.has(next)) continue;
      seen.add(next);
      if (this.#viewsHold(next, depth + 1, seen)) return true;
    }
    return false;
  }

  /** Where the secrets stand in the views of a segment, as spans of the segment. */
  #viewSpans(level: Derived, spans: Span<K>[] = [], depth = 0): Span<K>[] {
    const view = fold(level.text, true);
    const within = view?.text ?? level.text;
    const outer = level.from; // into the segment; undefined: the segment itself
    const source = (i: number): number => {
      const j = view ? view.from![i]! : i;
      return outer ? outer[j]! : j;
    };
    let lowered: string | undefined; // each character where it stood: the same map
    for (const { literal, kind, caseless } of this.#needles) {
      let last: Span<K> | undefined; // overlapping occurrences of a needle make one span (a periodic text has many)
      for (const i of literal.every(caseless ? (lowered ??= lower(within)) : within)) {
        const [start, end] = [source(i), source(i + literal.text.length)];
        if (last !== undefined && start < last.end) last.end = Math.max(last.end, end);
        else spans.push((last = { start, end, kind }));
      }
    }
    if (depth === MAX_DECODES) return spans;
    for (const family of FAMILIES) {
      const next = decode(level.text, family, true);
      if (next !== undefined) this.#viewSpans({ text: next.text, from: outer ? next.from!.map((i) => outer[i]!) : next.from }, spans, depth + 1);
    }
    return spans;
  }
}
