import { CP1252_HIGH } from '../../util/windows-1252.js';
import { LEGACY, NAMED } from './entities.js';

// A text seen the way a secret is searched in it. Two steps, each one pass that can keep where every character came
// from, so a secret found in the result is masked where it stands in the text:
// - decode: one level of the escapes of one family undone: JSON and JavaScript (`\"`, `\\`, `\/`, `\n`, `\u00e9`,
//   `\u{e9}`, `\xe9`), HTML and XML (`&eacute;`, `&#233;`, `&#xE9;`, without the `;` where a browser reads them so
//   too), URL (`%C3%A9` as UTF-8, `%E9` as windows-1252 where it is no UTF-8, `%u00E9`). One family at a time, since a
//   secret may hold what reads as an escape of another (a code with `&amp;` in it, JSON-escaped); a text escaped twice
//   or in two families (a JSON string quoted in a JSON error message, an HTML page quoting JSON) is decoded again;
// - fold: what a writer changes without meaning to: a run of whitespace becomes one space, a run of `"` one `"` (CSV
//   doubles them), a run of `+` one `+`, and invisible characters (a soft hyphen, a zero-width space, NUL) go. A secret is
//   folded the same way, so it is found however its spaces were written; one with a space is also searched with `+`
//   in its place, as a form writes it (secrets.ts);
// - lower: the text in lower case, for a secret found in any casing, each character where it stood.
// The escapes are found by fixed regular expressions (none is built from a secret), which scan natively: the common
// text, which holds few escapes, costs a scan, not a step of JavaScript per character.

/** A text made from another, and where each of its characters came from there. */
export interface Derived {
  text: string;
  /**
   * `from[i]` is where character `i` starts in the source, `from[text.length]` the source's length: character `i` came
   * from `source.slice(from[i], from[i + 1])`. Undefined when it was not asked for.
   */
  from: number[] | undefined;
}

/** A family of escapes: the character each starts with, and the escapes (a run of `%XX` is one: its bytes may make one UTF-8 character). */
export interface Family {
  start: string;
  token: RegExp;
}

export const FAMILIES: readonly Family[] = [
  { start: '\\', token: /\\(?:u\{[0-9a-fA-F]{1,6}\}|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|["'/\\nrtbf])/g },
  { start: '&', token: /&(?:#[xX][0-9a-fA-F]{1,8}|#[0-9]{1,9}|[A-Za-z][A-Za-z0-9]{1,31});?/g },
  { start: '%', token: /%[uU][0-9a-fA-F]{4}|%[0-9a-fA-F]{2}(?:%[0-9a-fA-F]{2})*/g },
];

const SIMPLE: Record<string, string> = { '"': '"', "'": "'", '/': '/', '\\': '\\', n: '\n', r: '\r', t: '\t', b: '\b', f: '\f' };

/** A code point as text: an invalid one (zero, a surrogate, beyond U+10FFFF) as U+FFFD, as a browser shows it. */
function charOf(cp: number, html: boolean): string {
  if (cp === 0 || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return '\ufffd';
  if (html && cp >= 0x80 && cp <= 0x9f) return CP1252_HIGH[cp - 0x80]!; // `&#150;` is a dash to a browser
  return String.fromCodePoint(cp);
}

/** Pushes, for each character of `text`, where it came from (`at`, or `at + i` when each came from its own place). */
function place(from: number[] | undefined, text: string, at: number, own = false): void {
  if (from) for (let i = 0; i < text.length; i++) from.push(own ? at + i : at);
}

/** One character of a run of `%XX` bytes at byte `k`: UTF-8 when they make a valid sequence, else the byte as windows-1252. */
function percentRun(token: string, at: number, from: number[] | undefined): string {
  const bytes = Buffer.from(token.replace(/%/g, ''), 'hex');
  let out = '';
  for (let k = 0; k < bytes.length; ) {
    const lead = bytes[k]!;
    const more = lead >= 0xc2 && lead <= 0xdf ? 1 : lead >= 0xe0 && lead <= 0xef ? 2 : lead >= 0xf0 && lead <= 0xf4 ? 3 : 0;
    let cp = more === 1 ? lead & 0x1f : more === 2 ? lead & 0x0f : lead & 0x07;
    let n = 1;
    for (; n <= more && k + n < bytes.length && (bytes[k + n]! & 0xc0) === 0x80; n++) cp = (cp << 6) | (bytes[k + n]! & 0x3f);
    const min = more === 2 ? 0x800 : more === 3 ? 0x10000 : 0;
    const valid = more > 0 && n === more + 1 && cp >= min && cp <= 0x10ffff && !(cp >= 0xd800 && cp <= 0xdfff);
    const char = valid ? String.fromCodePoint(cp) : lead >= 0x80 && lead <= 0x9f ? CP1252_HIGH[lead - 0x80]! : String.fromCharCode(lead);
    place(from, char, at + 3 * k);
    out += char;
    k += valid ? more + 1 : 1;
  }
  return out;
}

/** A named reference: by its name with `;`, else by the longest legacy name its letters start with (`&eacutex` is `éx`). */
function named(token: string, at: number, from: number[] | undefined): string {
  const semicolon = token.endsWith(';');
  const full = semicolon ? NAMED.get(token.slice(1, -1)) : undefined;
  if (full !== undefined) {
    place(from, full, at);
    return full;
  }
  for (let k = token.length - (semicolon ? 1 : 0); k > 2; k--) {
    const name = token.slice(1, k);
    if (!LEGACY.has(name)) continue;
    const char = NAMED.get(name)!;
    place(from, char, at);
    place(from, token.slice(k), at + k, true);
    return char + token.slice(k);
  }
  place(from, token, at, true);
  return token;
}

/** The text of one escape found at `at`; with `from`, where each of its characters came from. */
function decodeToken(token: string, at: number, from: number[] | undefined): string {
  let out: string;
  const c = token[1]!;
  if (token[0] === '\\') {
    if (c === 'u') out = token[2] === '{' ? charOf(parseInt(token.slice(3, -1), 16), false) : String.fromCharCode(parseInt(token.slice(2), 16));
    else if (c === 'x') out = String.fromCharCode(parseInt(token.slice(2), 16));
    else out = SIMPLE[c]!;
  } else if (token[0] === '&') {
    if (c !== '#') return named(token, at, from);
    const hex = token[2] === 'x' || token[2] === 'X';
    out = charOf(parseInt(token.slice(hex ? 3 : 2), hex ? 16 : 10), true);
  } else if (c === 'u' || c === 'U') {
    out = String.fromCharCode(parseInt(token.slice(2), 16));
  } else {
    return percentRun(token, at, from);
  }
  place(from, out, at);
  return out;
}

/** `text` with one level of the escapes of `family` undone; undefined when it holds none. */
export function decode(text: string, family: Family, withFrom: boolean): Derived | undefined {
  if (!text.includes(family.start)) return undefined;
  const token = family.token;
  if (!withFrom) {
    const out = text.replace(token, (t) => decodeToken(t, 0, undefined));
    return out === text ? undefined : { text: out, from: undefined };
  }
  const from: number[] = [];
  let out = '';
  let last = 0;
  token.lastIndex = 0;
  for (let m = token.exec(text); m !== null; m = token.exec(text)) {
    place(from, text.slice(last, m.index), last, true);
    out += text.slice(last, m.index) + decodeToken(m[0], m.index, from);
    last = m.index + m[0].length;
  }
  if (out === '' && last === 0) return undefined;
  place(from, text.slice(last), last, true);
  from.push(text.length);
  out += text.slice(last);
  return out === text ? undefined : { text: out, from };
}

/**
 * Characters fold drops: invisible format characters (a soft hyphen, zero-width spaces and joiners, direction marks, a
 * byte order mark), and NUL (a UTF-16 body read as UTF-8 has one after each ASCII character).
 */
export const INVISIBLE = /[\0\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u206f\ufeff]/;
/** Whitespace other than a plain space: fold makes each a space. */
export const OTHER_SPACE = /[\t-\r\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/;
const INVISIBLE_ALL = new RegExp(INVISIBLE.source, 'g');
const OTHER_SPACE_ALL = new RegExp(OTHER_SPACE.source, 'g');

/** Whether a text has anything to fold (each test a native scan for one class of characters or one string). */
const foldable = (text: string): boolean =>
  INVISIBLE.test(text) || OTHER_SPACE.test(text) || text.includes('  ') || text.includes('""') || text.includes('++');

/** `text` folded by whole-string operations: fast, and the same text the character loop of `fold` makes. */
function folded(text: string): string {
  let out = text.replace(INVISIBLE_ALL, '').replace(OTHER_SPACE_ALL, ' ');
  while (out.includes('  ')) out = out.replaceAll('  ', ' ');
  while (out.includes('""')) out = out.replaceAll('""', '"');
  while (out.includes('++')) out = out.replaceAll('++', '+');
  return out;
}

export const isSpace = (c: number): boolean =>
  c === 32 || (c >= 9 && c <= 13) || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000;

export const isInvisible = (c: number): boolean =>
  c === 0 || c === 0xad || c === 0x61c || c === 0x180e || (c >= 0x200b && c <= 0x200f) || (c >= 0x202a && c <= 0x202e) || (c >= 0x2060 && c <= 0x206f) || c === 0xfeff;

/** `text` folded (see above); undefined when folding changes nothing. */
export function fold(text: string, withFrom: boolean): Derived | undefined {
  if (!foldable(text)) return undefined;
  if (!withFrom) return { text: folded(text), from: undefined };
  // the same, one character at a time: an invisible character vanishes (into the run before it), a space, a quote or
  // a plus after one of its kind joins its run
  let out = '';
  let previous = 0;
  const from: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (isInvisible(c)) continue;
    const space = isSpace(c);
    if (space ? previous === 32 : (c === 34 || c === 43) && previous === c) continue;
    out += space ? ' ' : text[i];
    from.push(i);
    previous = space ? 32 : c;
  }
  from.push(text.length);
  return { text: out, from };
}

/** `text` in lower case, each character where it stood: one whose lower case is longer (`İ`) is kept as it is. */
export function lower(text: string): string {
  const out = text.toLowerCase();
  if (out.length === text.length) return out; // no character grew (none shrinks): each is where it was
  return text.replace(/./gsu, (c) => {
    const l = c.toLowerCase();
    return l.length === c.length ? l : c;
  });
}
