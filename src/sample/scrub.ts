import { digitValue, ibanValid, luhnValid } from './checks.js';

/**
 * Personal data in a question, each kind replaced by its placeholder. Every scanner below looks at each character a
 * bounded number of times (no regular expression searches the text, so no input can make one backtrack): scrubbing
 * is linear in the text, whatever it holds.
 */
export const PLACEHOLDERS = { email: '[email]', iban: '[iban]', card: '[card]', phone: '[phone]', number: '[number]' } as const;

export type PiiKind = keyof typeof PLACEHOLDERS;
export const PII_KINDS = Object.keys(PLACEHOLDERS) as PiiKind[];
export type PiiCounts = Record<PiiKind, number>;

export const noPii = (): PiiCounts => ({ email: 0, iban: 0, card: 0, phone: 0, number: 0 });

/** The shortest run of digits taken for an account, order or customer number (`[number]`): 6, past years and postcodes of 5. */
export const LONG_DIGITS = 6;

/**
 * The text with its personal data replaced, in this order: e-mail addresses; IBANs (mod-97 valid, written whole or
 * in groups); then in each run of digits (groups joined by a space, `-`, `.` or parentheses): card numbers (13-19
 * digits in groups joined by spaces or `-`, Luhn valid), phone numbers (see isPhone), and any other group of
 * LONG_DIGITS digits or more. Dates (2026-11-28, 28.11.2026), times, versions and short numbers are kept.
 * `counts` is added to.
 */
export function scrub(text: string, counts: PiiCounts): string {
  let t = text;
  if (t.includes('@')) t = scrubEmails(t, counts);
  if (hasDigit(t)) t = scrubDigits(scrubIbans(t, counts), counts);
  return t;
}

function hasDigit(t: string): boolean {
  for (let i = 0; i < t.length; i++) if (digitValue(t.charCodeAt(i)) >= 0) return true;
  return false;
}

const isAsciiAlnum = (c: number): boolean => (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
const isAsciiLetter = (c: number): boolean => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
const LETTER_OR_DIGIT = /^[\p{L}\p{N}\p{M}]$/u;

/** Whether the character at `i` belongs to a word (a letter, digit or mark of any script); false outside the text. */
function isWordAt(t: string, i: number): boolean {
  if (i < 0 || i >= t.length) return false;
  const c = t.charCodeAt(i);
  return c < 0x80 ? isAsciiAlnum(c) : LETTER_OR_DIGIT.test(t[i]!);
}

/** Replaces the spans (ordered, not overlapping) of `t` with their placeholders. */
function replaced(t: string, spans: readonly (readonly [start: number, end: number, kind: PiiKind])[], counts: PiiCounts): string {
  if (spans.length === 0) return t;
  let out = '';
  let last = 0;
  for (const [start, end, kind] of spans) {
    out += t.slice(last, start) + PLACEHOLDERS[kind];
    counts[kind]++;
    last = end;
  }
  return out + t.slice(last);
}

// --- e-mail addresses: found from each `@`, the local part to its left, the domain to its right

const LOCAL_PUNCTUATION = new Set(['.', '_', '%', '+', '-', "'"]);
const isLocalAt = (t: string, i: number): boolean => isWordAt(t, i) || LOCAL_PUNCTUATION.has(t[i]!);
const isDomainAt = (t: string, i: number): boolean => isWordAt(t, i) || t[i] === '-' || t[i] === '.';
const TOP_LEVEL = /^\p{L}{2,63}$/u;

/** A domain of two labels or more (letters, digits, inner `-`), the last of two letters or more. */
function isDomain(domain: string): boolean {
  const labels = domain.split('.');
  if (labels.length < 2 || !TOP_LEVEL.test(labels.at(-1)!)) return false;
  return labels.every((l) => l !== '' && !l.startsWith('-') && !l.endsWith('-'));
}

function scrubEmails(t: string, counts: PiiCounts): string {
  const spans: [number, number, PiiKind][] = [];
  let last = 0; // the end of the last address: no local part reaches back past it
  for (let at = t.indexOf('@'); at >= 0; ) {
    let start = at;
    while (start > last && isLocalAt(t, start - 1)) start--;
    while (start < at && t[start] === '.') start++;
    let end = at + 1;
    while (end < t.length && isDomainAt(t, end)) end++; // stops at the next `@`: each character is looked at twice at most
    while (end > at + 1 && (t[end - 1] === '.' || t[end - 1] === '-')) end--; // the full stop of a sentence
    if (start < at && isDomain(t.slice(at + 1, end))) {
      spans.push([start, end, 'email']);
      last = end;
      at = t.indexOf('@', end);
    } else at = t.indexOf('@', at + 1);
  }
  return replaced(t, spans, counts);
}

// --- IBANs: two letters and two digits at the start of a word, then letters and digits, whole or in groups of four

function scrubIbans(t: string, counts: PiiCounts): string {
  const spans: [number, number, PiiKind][] = [];
  for (let i = 0; i + 4 <= t.length; i++) {
    const c = t.charCodeAt(i);
    if (!isAsciiLetter(c) || isWordAt(t, i - 1)) continue;
    if (!isAsciiLetter(t.charCodeAt(i + 1)) || digitValue(t.charCodeAt(i + 2)) < 0 || digitValue(t.charCodeAt(i + 3)) < 0) continue;
    const end = ibanEnd(t, i);
    if (end < 0) continue;
    spans.push([i, end, 'iban']);
    i = end - 1;
  }
  return replaced(t, spans, counts);
}

/** Where an IBAN starting at `i` ends (the longest that is valid), or -1. Reads at most 42 characters. */
function ibanEnd(t: string, i: number): number {
  let j = i + 4;
  while (j < t.length && j - i <= 34 && isAsciiAlnum(t.charCodeAt(j))) j++;
  if (j > i + 4) return j - i >= 15 && j - i <= 34 && !isWordAt(t, j) && ibanValid(t.slice(i, j)) ? j : -1;
  // DE89 3704 0044 0532 0130 00: groups of four after a space, the last one shorter
  const ends: { end: number; chars: string }[] = [];
  let chars = t.slice(i, i + 4);
  for (let p = i + 4; t[p] === ' ' && chars.length < 34; ) {
    let q = p + 1;
    while (q < t.length && q - p - 1 < 5 && isAsciiAlnum(t.charCodeAt(q))) q++;
    const n = q - p - 1;
    if (n < 1 || n > 4 || isWordAt(t, q)) break;
    chars += t.slice(p + 1, q);
    ends.push({ end: q, chars });
    if (n < 4) break;
    p = q;
  }
  for (let k = ends.length - 1; k >= 0; k--) if (ibanValid(ends[k]!.chars)) return ends[k]!.end;
  return -1;
}

// --- runs of digits: groups of digits joined by a space, `-`, `.` or parentheses, read group by group

interface Group {
  start: number;
  end: number;
  /** What joins it to the group before (`''` for the first group of a run). */
  joint: string;
}

/** `)`, then one of space, `-`, `.`, then `(`, each optional, not all absent: what may join two groups of a phone number. */
function jointAt(t: string, i: number): string | undefined {
  let j = i;
  if (t[j] === ')') j++;
  if (t[j] === ' ' || t[j] === '-' || t[j] === '.') j++;
  if (t[j] === '(') j++;
  return j > i && digitValue(t.charCodeAt(j)) >= 0 ? t.slice(i, j) : undefined;
}

function scrubDigits(t: string, counts: PiiCounts): string {
  const spans: [number, number, PiiKind][] = [];
  for (let i = 0; i < t.length; ) {
    if (digitValue(t.charCodeAt(i)) < 0) {
      i++;
      continue;
    }
    // a run: `+` or `(` before it belongs to it
    const prefix = t[i - 1] === '(' ? (t[i - 2] === '+' ? i - 2 : i - 1) : t[i - 1] === '+' ? i - 1 : i;
    const groups: Group[] = [];
    let joint = '';
    for (let at = i; ; ) {
      let end = at;
      while (end < t.length && digitValue(t.charCodeAt(end)) >= 0) end++;
      groups.push({ start: at, end, joint });
      const next = jointAt(t, end);
      if (next === undefined) {
        i = end;
        break;
      }
      joint = next;
      at = end + next.length;
    }
    classify(t, groups, prefix, spans);
  }
  return replaced(t, spans, counts);
}

/** The digits of groups `from`..`to`, in ASCII (called only for a few dozen digits). */
function digitsOf(t: string, g: readonly Group[], from: number, to: number): string {
  let s = '';
  for (let k = from; k <= to; k++) for (let p = g[k]!.start; p < g[k]!.end; p++) s += digitValue(t.charCodeAt(p));
  return s;
}

const lengthOf = (x: Group): number => x.end - x.start;

/** How many digits groups i..j hold. */
function countDigits(g: readonly Group[], i: number, j: number): number {
  let d = 0;
  for (let k = i; k <= j; k++) d += lengthOf(g[k]!);
  return d;
}

/** The longest reach of a card or phone number, in groups (+33 6 12 34 56 78 is six). */
const MAX_GROUPS = 8;

/** Adds the spans of a run's groups: dates kept, then the longest card, else the longest phone number, else a long group. */
function classify(t: string, g: readonly Group[], prefix: number, spans: [number, number, PiiKind][]): void {
  for (let i = 0; i < g.length; ) {
    if (isDate(t, g, i)) {
      i += 3;
      continue;
    }
    const card = longest(g, i, (j) => isCard(t, g, i, j));
    if (card >= 0) {
      spans.push([g[i]!.start, g[card]!.end, 'card']);
      i = card + 1;
      continue;
    }
    let phoneSpan: [number, number] | undefined;
    const start = i === 0 ? prefix : g[i]!.joint.endsWith('(') ? g[i]!.start - 1 : g[i]!.start;
    const phone = longest(g, i, (j) => (phoneSpan = phoneAt(t, g, i, j, start)) !== undefined);
    if (phone >= 0) {
      spans.push([...phoneSpan!, 'phone']);
      i = phone + 1;
      continue;
    }
    if (lengthOf(g[i]!) >= LONG_DIGITS) spans.push([g[i]!.start, g[i]!.end, 'number']);
    i++;
  }
}

/** The last group `j` (at most MAX_GROUPS from `i`, the longest first) for which `ok(j)`; -1 when none. */
function longest(g: readonly Group[], i: number, ok: (j: number) => boolean): number {
  for (let j = Math.min(g.length - 1, i + MAX_GROUPS - 1); j >= i; j--) if (ok(j)) return j;
  return -1;
}

/**
 * 2026-11-28, 28.11.2026, 11-28-26: three groups joined by the same `-` or `.` (and no more of them: 06.12.34.56.78 is a
 * phone number), a year and a month and day that can be.
 */
function isDate(t: string, g: readonly Group[], i: number): boolean {
  if (i + 2 >= g.length) return false;
  const [a, b, c] = [g[i]!, g[i + 1]!, g[i + 2]!];
  if (b.joint !== c.joint || (b.joint !== '-' && b.joint !== '.')) return false;
  if (a.joint === b.joint || g[i + 3]?.joint === b.joint) return false;
  const [la, lb, lc] = [lengthOf(a), lengthOf(b), lengthOf(c)];
  if (la > 4 || lb > 2 || lc > 4) return false;
  const n = (x: Group): number => Number(digitsOf(t, [x], 0, 0));
  const dayMonth = (d: number, m: number): boolean => d >= 1 && d <= 31 && m >= 1 && m <= 12;
  if (la === 4 && lc <= 2) return dayMonth(n(c), n(b));
  if (la <= 2 && (lc === 2 || lc === 4)) return dayMonth(n(a), n(b)) || dayMonth(n(b), n(a));
  return false;
}

/** Groups i..j as a card number: 13-19 digits joined by spaces or `-` only, Luhn valid, not part of a longer word. */
function isCard(t: string, g: readonly Group[], i: number, j: number): boolean {
  const d = countDigits(g, i, j);
  if (d < 13 || d > 19) return false;
  for (let k = i + 1; k <= j; k++) if (g[k]!.joint !== ' ' && g[k]!.joint !== '-') return false;
  return !isWordAt(t, g[i]!.start - 1) && t[g[i]!.start - 1] !== '+' && !isWordAt(t, g[j]!.end) && luhnValid(digitsOf(t, g, i, j));
}

/**
 * Groups i..j (from `start`, which takes in a `+` or `(` before them) as a phone number: its span, or undefined.
 * International: `+` and 8-15 digits (E.164), or `00` and 10-15; with parentheses, 7-15 digits ((555) 123-4567,
 * +44 (0)20 ...); national with a trunk prefix, a first group of 2 digits or more starting with `0` and 9-12 digits in all
 * (020 7946 0958, 06 12 34 56 78; not the `0` of a version, 10.0.19041); North American, groups of 3-3-4 (or
 * 1-3-3-4 after a 1), or 3-4 joined by `-`. Not part of a longer word.
 */
function phoneAt(t: string, g: readonly Group[], i: number, j: number, start: number): [number, number] | undefined {
  const d = countDigits(g, i, j);
  if (d < 7 || d > 15) return undefined;
  // the parentheses of its prefix and joints; one left open is closed after the last group
  let paren = false;
  let open = false;
  const see = (text: string): void => {
    for (const c of text) if (c === '(' || c === ')') [paren, open] = [true, c === '('];
  };
  see(t.slice(start, g[i]!.start));
  for (let k = i + 1; k <= j; k++) see(g[k]!.joint);
  let end = g[j]!.end;
  if (open && t[end] === ')') end++;
  if (isWordAt(t, start - 1) || isWordAt(t, end)) return undefined;
  const size = (k: number): number => lengthOf(g[i + k]!);
  const n = j - i + 1;
  const head = digitsOf(t, g, i, Math.min(j, i + 2)).slice(0, 3);
  return (t[start] === '+' && d >= 8) ||
    (head.startsWith('00') && head[2] !== '0' && d >= 10) ||
    (paren && d >= 7) ||
    (head[0] === '0' && size(0) >= 2 && d >= 9 && d <= 12) ||
    (n === 3 && size(0) === 3 && size(1) === 3 && size(2) === 4) ||
    (n === 4 && head[0] === '1' && size(0) === 1 && size(1) === 3 && size(2) === 3 && size(3) === 4) ||
    (n === 2 && size(0) === 3 && size(1) === 4 && g[j]!.joint === '-')
    ? [start, end]
    : undefined;
}
