import { STEMMERS, STOP_WORDS } from './stemmers.js';

/** Languages with a stemmer (`stemmers.ts`); every other ISO 639-1 code gets the language-neutral analysis. */
export const STEMMED_LANGUAGES: readonly string[] = Object.keys(STEMMERS);

export type Analyzer = (text: string) => string[];

// Accents come off Latin letters only: a Devanagari or Thai vowel sign is part of its word.
const stripAccents = (s: string): string => (/[^\p{L}\p{N}]/u.test(s) || /[\u00C0-\u024F]/.test(s) ? s.normalize('NFKD').replace(/(\p{Script=Latin})\p{M}+/gu, '$1').normalize('NFC') : s);

const WORD = /[\p{L}\p{N}\p{M}]+/gu;
/** Scripts written without spaces between words: their runs are split into words by Intl.Segmenter. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;

/** Whether a word is written in a script without spaces (its single characters are words of their own). */
export const isUnspaced = (word: string): boolean => UNSPACED.test(word);

const segmenters = new Map<string, Intl.Segmenter>();
function segment(run: string, language: string): string[] {
  let segmenter = segmenters.get(language);
  if (!segmenter) segmenters.set(language, (segmenter = new Intl.Segmenter(language, { granularity: 'word' })));
  const out: string[] = [];
  for (const s of segmenter.segment(run)) if (s.isWordLike) out.push(...(s.segment.match(WORD) ?? []));
  return out;
}

/**
 * Text → words: lower case, accents off Latin letters, split on anything that is not a letter, digit or mark; a run
 * in a script without spaces (Japanese, Chinese, Thai, ...) is split by Unicode word segmentation (Intl.Segmenter).
 */
export function splitWords(text: string, language: string): string[] {
  const words: string[] = [];
  for (const word of stripAccents(text.toLowerCase()).match(WORD) ?? []) {
    if (UNSPACED.test(word)) words.push(...segment(word, language));
    else words.push(word);
  }
  return words;
}

export interface AnalyzerOptions {
  /** Keep stop words as terms: short replies inside a dialogue ("no", "not yet") live on them. @default false */
  keepStopWords?: boolean;
  /** Read every run of digits as "0", so that a number matches any number of its shape ("M1234" ~ "M9876"). @default false */
  anyNumber?: boolean;
}

/**
 * Words → index terms: stop words dropped (unless `keepStopWords`), stems without accents (for a language with a
 * stemmer; the words themselves otherwise), plus bigrams of every pair of neighbouring words, stop words included:
 * "my_name" and "your_name" differ, and "how_do" / "can_you" carry the shape of the question (+2 points top-1 on
 * CLINC150 val). One-letter words are left out, except digits and the characters of scripts without spaces.
 */
export function createTermMaker(language: string, options: AnalyzerOptions = {}): (words: readonly string[]) => string[] {
  const stem = STEMMERS[language];
  const stop = new Set(options.keepStopWords ? [] : (STOP_WORDS[language] ?? []).flatMap((w) => [w, stripAccents(w)]));
  const cache = new Map<string, string>();
  const stemCached = (w: string): string => {
    let s = cache.get(w);
    if (s === undefined) {
      s = stem ? stripAccents(stem(w)) : w;
      if (cache.size < 100_000) cache.set(w, s);
    }
    return s;
  };
  return (words) => {
    const terms: string[] = [];
    let previous: string | undefined;
    for (const raw of words) {
      const word = options.anyNumber ? raw.replace(/\d+/g, '0') : raw;
      if (word.length < 2 && !/\d/.test(word) && !UNSPACED.test(word)) {
        previous = undefined;
        continue;
      }
      const stemmed = stemCached(word);
      if (!stop.has(word)) terms.push(stemmed);
      if (previous !== undefined) terms.push(`${previous}_${stemmed}`);
      previous = stemmed;
    }
    return terms;
  };
}

/** Text → index terms (splitWords, then createTermMaker), for a language given as an ISO 639-1 code. */
export function createAnalyzer(language: string, options: AnalyzerOptions = {}): Analyzer {
  const terms = createTermMaker(language, options);
  return (text) => terms(splitWords(text, language));
}
