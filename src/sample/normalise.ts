import { normalizeText } from '../model/normalize.js';

/**
 * The languages whose accents are folded (café = cafe): those that write them as marks on letters which users often
 * leave out without making another word. In any other language, and when the language is not known, a mark makes
 * another letter (German zahlen "pay" and zählen "count"; Turkish, Nordic, Slavic, Baltic, Hungarian, Romanian and
 * Vietnamese letters) and is kept.
 */
export const ACCENT_FOLDING_LANGUAGES: ReadonlySet<string> = new Set(['en', 'fr', 'es', 'pt', 'it', 'ca', 'nl']);

/**
 * The marks folded in those languages, on Latin letters only: acute, grave, circumflex, diaeresis and cedilla
 * (é è ê ë ç). Never the tilde (Spanish ñ is a letter of its own) nor marks of other scripts (a Devanagari vowel sign
 * is part of the word).
 */
const ACCENTS = /(\p{Script=Latin})[\u0300\u0301\u0302\u0308\u0327]+/gu;

/**
 * A placeholder of scrubbed personal data (kept as it is: `[email]` is not the word "email"); else an apostrophe or
 * hyphen inside a word (don't, e-mail: dropped, dont, email); else a run of other punctuation (a space). Each
 * alternative reads a fixed number of characters or one run of punctuation: linear in the text.
 */
const PUNCTUATION = /(\[(?:email|iban|card|phone|number)\])|((?<=[\p{L}\p{N}])['’ʼ\-‐‑](?=[\p{L}\p{N}]))|\p{P}+/gu;

/** Invisible characters (zero-width space, joiners, bidirectional marks), dropped; control characters, spaces. */
const INVISIBLE = /\p{Cf}+/gu;
const CONTROL = /\p{Cc}+/gu;

/**
 * A question as it is compared for repeats: invisible characters dropped, Unicode NFKC, lower case, accents folded where its language allows
 * (ACCENT_FOLDING_LANGUAGES), apostrophes and hyphens inside words dropped, other punctuation as spaces, runs of
 * whitespace as one space, trimmed. Symbols (+, $, emoji) are kept. `How do I pay my bill??` and `how do i pay my
 * bill` are the same question; so are `Where's my order?` and `wheres my order`. Pure.
 */
export function foldText(text: string, language: string | undefined): string {
  let t = normalizeText(text.replace(INVISIBLE, '').replace(CONTROL, ' '));
  if (language !== undefined && ACCENT_FOLDING_LANGUAGES.has(language)) t = t.normalize('NFD').replace(ACCENTS, '$1').normalize('NFC');
  t = t.replace(PUNCTUATION, (_, placeholder?: string, inWord?: string) => (placeholder !== undefined ? ` ${placeholder} ` : inWord !== undefined ? '' : ' '));
  // trimmed by a replacement, not trim(): trim's result can be a slice that keeps the whole string it was cut from alive
  return t.replace(/\s+/g, ' ').replace(/^ | $/g, '');
}
