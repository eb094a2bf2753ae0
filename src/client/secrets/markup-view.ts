// The text a person reads of a body with markup in it (an xml or html reply, an error page, a text reply holding
// tags): tags, comments, processing instructions and declarations removed, CDATA read as text. A secret split by
// markup (`CO<b></b>DE`, `CO<!-- -->DE`, `<![CDATA[CO]]><![CDATA[DE]]>`) stands whole only there. Entities are not
// decoded here: the search decodes them in every text it looks at (views.ts), this one too.
//
// Linear in the text, and cheap where no secret can be split: each `<` is found by indexOf, and so is the end of its
// construct, each string an end is looked for by (`>`, a quote, `-->`) searched forward only, once in all (a native
// scan, faster than a regular expression's); an unterminated construct runs to the end of the text, as a browser
// reads it. A view is made only where markup stands between two characters that may both be in a secret.

/** The rules a text is read by where XML and HTML differ. */
type Rules = 'xml' | 'html';

/** A text made from a markup text by removing its markup, and where each of its characters came from. */
export interface MarkupView {
  text: string;
  /** With positions: character `i` came from `source.slice(from[i], to[i])` (a whole construct, for the space that took its place). */
  from: Int32Array | undefined;
  to: Int32Array | undefined;
}

const GT = 62;
const isLetter = (c: number): boolean => (c | 32) >= 97 && (c | 32) <= 122;
/** A tag's name starts so (XML's names also with `_`, `:` or any non-ASCII character; HTML reads those as text: taken either way). */
const startsName = (c: number): boolean => isLetter(c) || c === 95 || c === 58 || c >= 0x80;
const isSpace = (c: number): boolean => c === 32 || c === 9 || c === 10 || c === 12 || c === 13;

/** The rarer strings a construct ends with (`>` and the quotes are kept apart). */
const RARE = ['-->', '--!>', '?>', ']]>'] as const;
type Rare = (typeof RARE)[number];
const CDATA = '<![CDATA[';

/** Reads a source's markup by one set of rules. Each string looked for is kept until the reading passes it. */
class Scanner {
  // where `>`, `"`, `'` next stand at or after the last place each was looked for from (length: nowhere; -1: not yet)
  #gt = -1;
  #dq = -1;
  #sq = -1;
  readonly #rare = [-1, -1, -1, -1];
  /** Whether a construct seen ends elsewhere by the other rules (CDATA, a comment closed by `--!>`, `<?a>b?>`). */
  diverges = false;
  /** For the construct just read, when it is CDATA read as text (XML): where its text ends (it starts after `<![CDATA[`). */
  cdataEnd = -1;

  constructor(
    readonly s: string,
    readonly rules: Rules,
  ) {}

  #index(char: string, from: number): number {
    const i = this.s.indexOf(char, from);
    return i < 0 ? this.s.length : i;
  }

  /** Where `needle` next starts at or after `from` (the text's length when nowhere). */
  #find(needle: Rare, from: number): number {
    const k = RARE.indexOf(needle);
    if (this.#rare[k]! < from) this.#rare[k] = this.#index(needle, from);
    return this.#rare[k]!;
  }

  #after(needle: Rare, from: number): number {
    return Math.min(this.#find(needle, from) + needle.length, this.s.length);
  }

  #afterGt(from: number): number {
    if (this.#gt < from) this.#gt = this.#index('>', from);
    return Math.min(this.#gt + 1, this.s.length);
  }

  /** The end of a start or end tag whose name starts at `i` (after `<` or `</`): its `>`, a quoted attribute value passed over whole. */
  #tagEnd(i: number): number {
    const s = this.s;
    for (let k = i; ; ) {
      if (this.#gt < k) this.#gt = this.#index('>', k);
      if (this.#dq < k) this.#dq = this.#index('"', k);
      if (this.#sq < k) this.#sq = this.#index("'", k);
      const q = this.#dq < this.#sq ? this.#dq : this.#sq;
      if (this.#gt < q) return this.#gt + 1;
      if (q >= s.length) return s.length;
      // as HTML's tokenizer reads it: a quote opens a value only right after `=` (spaces between)
      let b = q - 1;
      while (b >= i && isSpace(s.charCodeAt(b))) b--;
      if (b < i || s.charCodeAt(b) !== 61) {
        k = q + 1;
        continue;
      }
      const close = q === this.#dq ? (this.#dq = this.#index('"', q + 1)) : (this.#sq = this.#index("'", q + 1));
      if (close >= s.length) return s.length;
      k = close + 1;
    }
  }

  /** A comment's end: `-->`; by HTML's rules also `--!>`, and `<!-->` or `<!--->` is an empty comment. */
  #commentEnd(p: number): number {
    const s = this.s;
    const xml = this.#after('-->', p + 4);
    const abrupt = s.charCodeAt(p + 4) === GT ? p + 5 : s.startsWith('->', p + 4) ? p + 6 : -1;
    const html = abrupt >= 0 ? abrupt : Math.min(xml, this.#after('--!>', p + 4));
    if (html !== xml) this.diverges = true;
    return this.rules === 'xml' ? xml : html;
  }

  /** The end of the construct that starts at the `<` at `p` (see `cdataEnd`); -1 when this `<` is text (`a < b`, `<3`). */
  construct(p: number): number {
    const s = this.s;
    const c = s.charCodeAt(p + 1);
    this.cdataEnd = -1;
    if (c === 47) { // `</`
      const d = s.charCodeAt(p + 2);
      if (Number.isNaN(d)) return -1; // `</` at the very end is text
      if (d === GT) return p + 3;
      return startsName(d) ? this.#tagEnd(p + 2) : this.#afterGt(p + 2);
    }
    if (c === 33) { // `<!`
      if (s.startsWith('--', p + 2)) return this.#commentEnd(p);
      if (s.startsWith('[CDATA[', p + 2)) {
        this.diverges = true;
        if (this.rules === 'xml') {
          this.cdataEnd = this.#find(']]>', p + CDATA.length);
          return this.#after(']]>', p + CDATA.length);
        }
      }
      return this.#afterGt(p + 2); // a declaration; in HTML, a bogus comment
    }
    if (c === 63) { // `<?`
      const html = this.#afterGt(p + 2);
      const xml = this.#after('?>', p + 2);
      if (html !== xml) this.diverges = true;
      return this.rules === 'xml' ? xml : html;
    }
    return startsName(c) ? this.#tagEnd(p + 1) : -1;
  }
}

/**
 * The source's text as `rules` read it: the ranges of the source that are text, in order, a removed construct between
 * each two (a range may be empty); undefined when it holds no markup. `diverges`: the other rules may read it otherwise.
 */
function textRanges(source: string, rules: Rules): { ranges: number[]; diverges: boolean } | undefined {
  const scanner = new Scanner(source, rules);
  const ranges: number[] = [];
  let at = 0; // the source's next character not yet read
  for (let p = source.indexOf('<'); p >= 0; ) {
    const end = scanner.construct(p);
    if (end < 0) {
      p = source.indexOf('<', p + 1);
      continue;
    }
    ranges.push(at, p);
    if (scanner.cdataEnd >= 0) ranges.push(p + CDATA.length, scanner.cdataEnd); // its two delimiters are two constructs
    at = end;
    p = source.indexOf('<', end);
  }
  if (ranges.length === 0) return undefined;
  ranges.push(at, source.length);
  return { ranges, diverges: scanner.diverges };
}

/** Whether markup stands between two code units that may both stand in a secret (`joins`): else no view can hold one the source does not. */
function joined(source: string, ranges: readonly number[], joins: Uint8Array): boolean {
  let last = -1; // the last character of text so far, -1 before any
  for (let k = 0; k < ranges.length; k += 2) {
    const start = ranges[k]!;
    const end = ranges[k + 1]!;
    if (end === start) continue;
    if (last >= 0 && joins[source.charCodeAt(last)]! > 0 && joins[source.charCodeAt(start)]! > 0) return true;
    last = end - 1;
  }
  return false;
}

/** The view made of the text `ranges` of `source`, each removed construct replaced by `gap`. */
function view(source: string, ranges: readonly number[], gap: '' | ' ', withPositions: boolean): MarkupView {
  const parts: string[] = [];
  // a construct is 3 characters at least: the text is never longer than the source
  const from = withPositions ? new Int32Array(source.length) : undefined;
  const to = withPositions ? new Int32Array(source.length) : undefined;
  let length = 0;
  for (let k = 0; k < ranges.length; k += 2) {
    const start = ranges[k]!;
    const end = ranges[k + 1]!;
    if (k > 0 && gap !== '' && ranges[k - 1]! < start) {
      parts.push(gap);
      if (from && to) {
        from[length] = ranges[k - 1]!; // the construct removed: from the end of the range before to the start of this one
        to[length] = start;
      }
      length++;
    }
    if (end > start) parts.push(source.slice(start, end));
    if (from && to) {
      for (let i = start; i < end; i++, length++) {
        from[length] = i;
        to[length] = i + 1;
      }
    } else length += end - start;
  }
  return { text: parts.join(''), from: from?.subarray(0, length), to: to?.subarray(0, length) };
}

/** What markupViews needs to know of the secrets. */
export interface MarkupSecrets {
  /** Whether a secret holds a space: markup is then also read as a space (`<br>`, `</p><p>` part words as a browser shows them). */
  spaced: boolean;
  /** For each code unit, not 0 when it may stand in a secret in some view of a text. */
  joins: Uint8Array;
}

/**
 * The texts a person may read of `source`, its markup removed: by XML's rules, and by HTML's where they differ (a
 * comment closed by `--!>`, CDATA, `<?a>b?>`); each construct removed, and, for secrets that hold a space, also each
 * replaced by a space. Only where markup stands between two characters that may both be in a secret: none for a
 * body whose tags stand between words and spaces (most replies), nor for one without markup. `withPositions`: each
 * says where its characters came from, to mask a secret where it stands in the source, the markup between its
 * pieces included.
 */
export function markupViews(source: string, secrets: MarkupSecrets, withPositions: boolean): MarkupView[] {
  if (!source.includes('<')) return [];
  const xml = textRanges(source, 'xml');
  if (xml === undefined) return []; // no markup by XML's rules: none by HTML's either
  const readings = xml.diverges ? [xml.ranges, textRanges(source, 'html')!.ranges] : [xml.ranges];
  const views: MarkupView[] = [];
  for (const ranges of readings) {
    if (!joined(source, ranges, secrets.joins)) continue;
    for (const gap of secrets.spaced ? (['', ' '] as const) : ([''] as const)) {
      const v = view(source, ranges, gap, withPositions);
      if (!views.some((w) => w.text === v.text)) views.push(v);
    }
  }
  return views;
}
