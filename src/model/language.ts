import { quote } from './quote.js';
/**
 * ISO 639-1 language codes: what the spec's `language` field (2.1) takes. One list for the dataset reader, the
 * client and the embedded engine, so "a language" means the same everywhere.
 */
const ISO_639_1 =
  'aa ab ae af ak am an ar as av ay az ba be bg bh bi bm bn bo br bs ca ce ch co cr cs cu cv cy da de dv dz ee el en eo ' +
  'es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht hu hy hz ia id ie ig ii ik io is it iu ja jv ka kg ' +
  'ki kj kk kl km kn ko kr ks ku kv kw ky la lb lg li ln lo lt lu lv mg mh mi mk ml mn mr ms mt my na nb nd ne ng nl nn ' +
  'no nr nv ny oc oj om or os pa pi pl ps pt qu rm rn ro ru rw sa sc sd se sg si sk sl sm sn so sq sr ss st su sv sw ta ' +
  'te tg th ti tk tl tn to tr ts tt tw ty ug uk ur uz ve vi vo wa wo xh yi yo za zh zu';

/** Every ISO 639-1 code, lower case. */
export const LANGUAGES: ReadonlySet<string> = new Set(ISO_639_1.split(' '));

/** A language as a dataset or a request may write it, and the ISO 639-1 code it stands for. */
export type LanguageReading =
  | { code: string; region?: string }
  | { problem: string };

/**
 * Reads a language tag: an ISO 639-1 code in any case (`en`, `EN`), or one with a region or script as BCP 47 writes it
 * (`en-US`, `pt_BR`, `zh-Hant`), which stands for its ISO 639-1 code (`region` keeps what was dropped, for a note).
 * Anything else (`english`, `eng`, `e`) is a problem that says what was expected. Pure.
 */
export function readLanguage(value: string): LanguageReading {
  const trimmed = value.trim();
  const match = /^([A-Za-z]{2})(?:[-_]([A-Za-z0-9]{1,8}(?:[-_][A-Za-z0-9]{1,8})*))?$/.exec(trimmed);
  const code = match?.[1]!.toLowerCase();
  if (code === undefined || !LANGUAGES.has(code)) {
    return { problem: `${quote(trimmed)} is not an ISO 639-1 language code (expected two letters such as en, it or pt; a region form such as en-US is read as en)` };
  }
  return match![2] === undefined ? { code } : { code, region: match![2] };
}
