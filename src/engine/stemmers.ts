import { stemmer as ar } from '@orama/stemmers/arabic';
import { stemmer as hy } from '@orama/stemmers/armenian';
import { stemmer as bg } from '@orama/stemmers/bulgarian';
import { stemmer as da } from '@orama/stemmers/danish';
import { stemmer as nl } from '@orama/stemmers/dutch';
import { stemmer as en } from '@orama/stemmers/english';
import { stemmer as fi } from '@orama/stemmers/finnish';
import { stemmer as fr } from '@orama/stemmers/french';
import { stemmer as de } from '@orama/stemmers/german';
import { stemmer as el } from '@orama/stemmers/greek';
import { stemmer as hu } from '@orama/stemmers/hungarian';
import { stemmer as hi } from '@orama/stemmers/indian';
import { stemmer as id } from '@orama/stemmers/indonesian';
import { stemmer as ga } from '@orama/stemmers/irish';
import { stemmer as it } from '@orama/stemmers/italian';
import { stemmer as lt } from '@orama/stemmers/lithuanian';
import { stemmer as ne } from '@orama/stemmers/nepali';
import { stemmer as no } from '@orama/stemmers/norwegian';
import { stemmer as pt } from '@orama/stemmers/portuguese';
import { stemmer as ro } from '@orama/stemmers/romanian';
import { stemmer as ru } from '@orama/stemmers/russian';
import { stemmer as sr } from '@orama/stemmers/serbian';
import { stemmer as es } from '@orama/stemmers/spanish';
import { stemmer as sv } from '@orama/stemmers/swedish';
import { stemmer as ta } from '@orama/stemmers/tamil';
import { stemmer as tr } from '@orama/stemmers/turkish';
import { stemmer as uk } from '@orama/stemmers/ukrainian';
import { stemmer as sa } from '@orama/stemmers/sanskrit';
import { stopwords as arStop } from '@orama/stopwords/arabic';
import { stopwords as hyStop } from '@orama/stopwords/armenian';
import { stopwords as bgStop } from '@orama/stopwords/bulgarian';
import { stopwords as daStop } from '@orama/stopwords/danish';
import { stopwords as nlStop } from '@orama/stopwords/dutch';
import { stopwords as enStop } from '@orama/stopwords/english';
import { stopwords as fiStop } from '@orama/stopwords/finnish';
import { stopwords as frStop } from '@orama/stopwords/french';
import { stopwords as deStop } from '@orama/stopwords/german';
import { stopwords as elStop } from '@orama/stopwords/greek';
import { stopwords as huStop } from '@orama/stopwords/hungarian';
import { stopwords as hiStop } from '@orama/stopwords/indian';
import { stopwords as idStop } from '@orama/stopwords/indonesian';
import { stopwords as gaStop } from '@orama/stopwords/irish';
import { stopwords as itStop } from '@orama/stopwords/italian';
import { stopwords as jaStop } from '@orama/stopwords/japanese';
import { stopwords as ltStop } from '@orama/stopwords/lithuanian';
import { stopwords as zhStop } from '@orama/stopwords/mandarin';
import { stopwords as neStop } from '@orama/stopwords/nepali';
import { stopwords as noStop } from '@orama/stopwords/norwegian';
import { stopwords as ptStop } from '@orama/stopwords/portuguese';
import { stopwords as roStop } from '@orama/stopwords/romanian';
import { stopwords as ruStop } from '@orama/stopwords/russian';
import { stopwords as srStop } from '@orama/stopwords/serbian';
import { stopwords as esStop } from '@orama/stopwords/spanish';
import { stopwords as svStop } from '@orama/stopwords/swedish';
import { stopwords as taStop } from '@orama/stopwords/tamil';
import { stopwords as trStop } from '@orama/stopwords/turkish';
import { stopwords as ukStop } from '@orama/stopwords/ukrainian';
import { stopwords as saStop } from '@orama/stopwords/sanskrit';

// What @orama/stemmers and @orama/stopwords have, by ISO 639-1 code (their own file names are not ISO codes:
// "dk" is Danish, "gr" Greek, "in" Hindi, "se" Swedish, "am" Armenian). Norwegian serves nb and nn as well.

/** Snowball-style stemmers, by ISO 639-1 code. */
export const STEMMERS: Readonly<Record<string, (word: string) => string>> = {
  ar, hy, bg, da, nl, en, fi, fr, de, el, hu, hi, id, ga, it, lt, ne, no, nb: no, nn: no, pt, ro, ru, sr, es, sv, ta, tr, uk, sa,
};

/** Stop-word lists, by ISO 639-1 code (Japanese and Chinese have one but no stemmer). */
export const STOP_WORDS: Readonly<Record<string, readonly string[]>> = {
  ar: arStop, hy: hyStop, bg: bgStop, da: daStop, nl: nlStop, en: enStop, fi: fiStop, fr: frStop, de: deStop, el: elStop,
  hu: huStop, hi: hiStop, id: idStop, ga: gaStop, it: itStop, ja: jaStop, lt: ltStop, zh: zhStop, ne: neStop, no: noStop,
  nb: noStop, nn: noStop, pt: ptStop, ro: roStop, ru: ruStop, sr: srStop, es: esStop, sv: svStop, ta: taStop, tr: trStop,
  uk: ukStop, sa: saStop,
};
