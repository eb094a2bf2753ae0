import { toWindows1252, windows1252 } from '../../util/windows-1252.js';
import { base64Forms, reach } from './base64.js';
import { LiteralBytes } from './literal.js';
import { markupViews, type MarkupSecrets, type MarkupView } from './markup-view.js';
import { Finder, type Needle, type Span } from './search.js';
import { fold, lower } from './views.js';

/**
 * Secrets shorter than this (in characters) are not searched for: replacing every "ab" would garble a report, and a
 * secret this short is guessed in a few thousand tries. The run says so before it asks (see tooShort).
 */
export const MIN_SECRET_LENGTH = 4;

/** What a secret is; it names the mask that takes its place: `<agent code>`, `<password>`... */
export const SECRET_KINDS = ['agent code', 'password', 'user name', 'query value', 'credentials'] as const;
export type SecretKind = (typeof SECRET_KINDS)[number];

export interface Secret {
  kind: SecretKind;
  /** The secret as it is sent. */
  value: string;
  /** Other ways the user wrote it, e.g. a password as percent-encoded in the URL. */
  typed?: readonly string[];
}

/** What a secret of this kind is replaced with. */
export const maskOf = (kind: SecretKind): string => `<${kind}>`;

/** Whether a text holds a mask: what the service sent there was masked after it was judged. */
export const holdsMask = (text: string): boolean => SECRET_KINDS.some((kind) => text.includes(maskOf(kind)));

const ENCODED_MASK = /%3C(agent%20code|password|user%20name|query%20value|credentials)%3E/g;

/** A URL made from a masked one, its masks as they read: `<agent code>` where the URL parser wrote `%3Cagent%20code%3E`. */
export const readableMasks = (url: string): string => url.replace(ENCODED_MASK, (_, kind: string) => `<${decodeURIComponent(kind)}>`);

/** Whether a secret is too short to be masked (see MIN_SECRET_LENGTH). */
export const tooShort = (value: string): boolean => [...value].length < MIN_SECRET_LENGTH;

/** The highest code unit of a text: above 0x7F it is not ASCII, up to 0xFF it is Latin-1. */
function highest(text: string): number {
  let max = 0;
  for (let i = 0; i < text.length; i++) max = Math.max(max, text.charCodeAt(i));
  return max;
}

/**
 * The secret as text may hold it once its bytes were read in the wrong encoding: its UTF-8 read as windows-1252 or
 * Latin-1 (`cafÃ©`, a header or a reply that declared the wrong charset), its windows-1252 or Latin-1 bytes read as
 * UTF-8 (`caf\uFFFD`, a reply that declared none).
 */
function misread(value: string): string[] {
  const utf8 = Buffer.from(value, 'utf8');
  const forms = [windows1252(utf8), utf8.toString('latin1')];
  const cp1252 = toWindows1252(value);
  if (cp1252) forms.push(cp1252.toString('utf8'));
  if (highest(value) <= 0xff) forms.push(Buffer.from(value, 'latin1').toString('utf8'));
  return forms;
}

/** The bytes a body may hold the secret in, whatever charset it then declares: UTF-8, windows-1252, Latin-1, UTF-16. */
function encodings(value: string): { bytes: Buffer; wide: 'le' | 'be' | undefined }[] {
  const le = Buffer.from(value, 'utf16le');
  const forms: { bytes: Buffer; wide: 'le' | 'be' | undefined }[] = [
    { bytes: Buffer.from(value, 'utf8'), wide: undefined },
    { bytes: le, wide: 'le' as const },
    { bytes: Buffer.from(le).swap16(), wide: 'be' as const },
  ];
  const cp1252 = toWindows1252(value);
  if (cp1252) forms.push({ bytes: cp1252, wide: undefined });
  if (highest(value) <= 0xff) forms.push({ bytes: Buffer.from(value, 'latin1'), wide: undefined });
  return forms;
}

const folded = (text: string): string => fold(text, false)?.text ?? text;

/**
 * Whether a secret is written like a word (`bill`, `Bill`, `BILL`: letters only, in one case or capitalised): its
 * other casings are ordinary words too, so it is found only in its own. Any other secret is found in any casing (a
 * service that lower-cases the header it echoes).
 */
const wordLike = (value: string): boolean => /^(?:\p{Lu}?[\p{Ll}\p{M}]+|[\p{Lu}\p{M}]+)$/u.test(value);

/** A secret's text in the forms a caseless search compares: in lower case, and upper then lower (`ß`, `SS`, `ss`). */
const caseForms = (text: string): string[] => [...new Set([lower(text), lower(text.toUpperCase())])];

/** What a needle stands for: the kind of its secret, and for a base64 form the characters around it to mask too. */
interface Tag {
  kind: SecretKind;
  lead: number;
  trail: number;
}

/** Spans sorted and joined where they overlap; each keeps the kind of the first. */
function merged<S extends Span<SecretKind>>(spans: S[]): S[] {
  spans.sort((a, b) => a.start - b.start || b.end - a.end);
  const out: S[] = [];
  for (const span of spans) {
    const last = out.at(-1);
    if (last !== undefined && span.start < last.end) last.end = Math.max(last.end, span.end);
    else if (span.end > span.start) out.push({ ...span });
  }
  return out;
}

/** A span of a markup view, as the span of the source it came from (the markup inside it included). */
function source(view: MarkupView, span: { start: number; end: number }): { start: number; end: number } {
  return { start: view.from![span.start]!, end: view.to![span.end - 1]! };
}

/** `text` with each span replaced by the mask of its kind (overlapping spans joined). */
function replaced(text: string, spans: Span<SecretKind>[]): string {
  if (spans.length === 0) return text;
  let out = '';
  let at = 0;
  for (const span of merged(spans)) {
    out += text.slice(at, span.start) + maskOf(span.kind);
    at = span.end;
  }
  return out + text.slice(at);
}

/**
 * The secrets of a run, in every form a service, a proxy or an error page may write them back in, and the one place
 * that masks them. Built once per run; every search is literal (no regular expression is built from a secret) and
 * linear in the text, whatever the secrets' length. A text is searched as it is and in its decoded views (views.ts,
 * search.ts); a secret found in any of them is masked where it stands in the text.
 */
export class Secrets {
  readonly #text: { text: string; kind: SecretKind }[] = [];
  readonly #bytes: { needle: LiteralBytes; kind: SecretKind; wide: 'le' | 'be' | undefined }[] = [];
  readonly #finder: Finder<Tag>;
  /** What reading through markup needs to know of these secrets (markup-view.ts). */
  readonly #markup: MarkupSecrets;

  /** Secrets shorter than MIN_SECRET_LENGTH are left out (the run warns about them, see tooShort). */
  constructor(secrets: readonly Secret[]) {
    const seenText = new Set<string>();
    const seenBytes = new Set<string>();
    const needles: Needle<Tag>[] = [];
    const seenNeedles = new Set<string>();
    const add = (needle: Needle<Tag>): void => {
      const key = `${needle.caseless === true}:${needle.text}`;
      if (needle.text === '' || seenNeedles.has(key)) return;
      seenNeedles.add(key);
      needles.push(needle);
    };
    for (const secret of secrets) {
      if (tooShort(secret.value)) continue;
      const caseless = !wordLike(secret.value);
      // its letters composed or decomposed (`é` as e and a combining accent), as a service that normalizes writes them
      const values = new Set([secret.value, secret.value.normalize('NFC'), secret.value.normalize('NFD')]);
      for (const form of [...values, ...(secret.typed ?? [])]) {
        // a space may come back as a form's `+`
        const texts = [form, ...(highest(form) > 0x7f ? misread(form) : [])].map(folded).flatMap((t) => (t.includes(' ') ? [t, t.replaceAll(' ', '+')] : [t]));
        for (const text of texts) {
          if (text === '' || seenText.has(text)) continue;
          seenText.add(text);
          this.#text.push({ text, kind: secret.kind });
          for (const form of caseless ? caseForms(text) : [text]) add({ text: form, kind: { kind: secret.kind, lead: 0, trail: 0 }, caseless });
        }
      }
      // its UTF-8 bytes (and Latin-1 ones, as a header carries them) in base64, as a proxy dumping headers writes them
      const raw = [Buffer.from(secret.value, 'utf8'), ...(highest(secret.value) <= 0xff ? [Buffer.from(secret.value, 'latin1')] : [])];
      for (const bytes of raw) for (const { text, lead, trail } of base64Forms(bytes)) add({ text: folded(text), kind: { kind: secret.kind, lead, trail } });
      const cased = caseless ? new Set([secret.value, secret.value.toLowerCase(), secret.value.toUpperCase()]) : [secret.value];
      for (const { bytes, wide } of [...cased].flatMap(encodings)) {
        const key = bytes.toString('hex');
        if (seenBytes.has(key)) continue;
        seenBytes.add(key);
        this.#bytes.push({ needle: new LiteralBytes(bytes), kind: secret.kind, wide });
      }
    }
    this.#finder = new Finder(needles);
    this.#markup = { spaced: needles.some((n) => n.text.includes(' ')), joins: this.#finder.joins };
  }

  /** Whether there is any secret to mask. */
  get empty(): boolean {
    return this.#text.length === 0;
  }

  /**
   * Whether `text` holds a secret in any form: as it is, or in the text a person reads of it once its markup is
   * removed (markup-view.ts: `CO<b></b>DE`), looked at only when it holds a `<`.
   */
  holds(text: string): boolean {
    if (this.#finder.holds(text)) return true;
    if (!text.includes('<')) return false;
    return markupViews(text, this.#markup, false).some((v) => this.#finder.holds(v.text));
  }

  /**
   * `text` with every secret, in any form, replaced by the mask of its kind (`<agent code>`). A secret that stands
   * whole only once the markup is removed is masked where its pieces stand, the markup between them too.
   */
  mask(text: string): string {
    if (!this.holds(text)) return text;
    const spans = this.#finder.spans(text).map(({ start, end, kind: tag }) => ({ ...(tag.lead + tag.trail > 0 ? reach(text, { start, end }, tag) : { start, end }), kind: tag.kind }));
    for (const view of markupViews(text, this.#markup, true)) {
      for (const { start, end, kind: tag } of this.#finder.spans(view.text)) {
        spans.push({ ...source(view, tag.lead + tag.trail > 0 ? reach(view.text, { start, end }, tag) : { start, end }), kind: tag.kind });
      }
    }
    return replaced(text, spans);
  }

  /**
   * `text`, already masked, with the start of a secret masked where the text was cut right after it (`pay by bi…`
   * for the code `bill`): for a message quoting, cut short, a reply that held a secret. Where markup splits that
   * start (`bi<b></b>l…`), it is masked with the markup.
   */
  maskCut(text: string): string {
    if (!text.includes('…')) return text;
    let out = this.#maskCutAcross(text);
    for (const { text: needle, kind } of this.#text) {
      for (const written of [needle, JSON.stringify(needle).slice(1, -1)]) { // a message quotes it JSON-escaped
        for (let k = written.length - 1; k >= 1; k--) {
          const cut = `${written.slice(0, k)}…`;
          if (out.includes(cut)) {
            out = out.split(cut).join(`${maskOf(kind)}…`);
            break;
          }
        }
      }
    }
    return out;
  }

  /** The start of a secret cut right before a `…`, split by markup: masked in `text` with the markup inside it. */
  #maskCutAcross(text: string): string {
    const spans: Span<SecretKind>[] = [];
    for (const view of markupViews(text, this.#markup, true)) {
      for (let cut = view.text.indexOf('…'); cut > 0; cut = view.text.indexOf('…', cut + 1)) {
        for (const { text: needle, kind } of this.#text) {
          for (let k = Math.min(needle.length - 1, cut); k >= 1; k--) {
            if (!view.text.startsWith(needle.slice(0, k), cut - k)) continue;
            const span = source(view, { start: cut - k, end: cut });
            if (span.end - span.start > k) spans.push({ ...span, kind }); // markup inside: no search of the raw text sees it
            break;
          }
        }
      }
    }
    return replaced(text, spans);
  }

  /** Whether a body's bytes hold a secret in one of the encodings it may have been sent in. */
  holdsBytes(bytes: Buffer): boolean {
    for (const { needle } of this.#bytes) if (needle.find(bytes, false).length > 0) return true;
    return false;
  }

  /**
   * A body's bytes with every secret in them (UTF-8, windows-1252, Latin-1, UTF-16) replaced by its mask in the same
   * encoding, before any charset decodes them: no charset it declares can turn the secret into text no search finds.
   */
  maskBytes(bytes: Buffer): Buffer {
    const spans: (Span<SecretKind> & { wide: 'le' | 'be' | undefined })[] = [];
    for (const { needle, kind, wide } of this.#bytes) for (const i of needle.find(bytes, true)) spans.push({ start: i, end: i + needle.bytes.length, kind, wide });
    if (spans.length === 0) return bytes;
    const pieces: Buffer[] = [];
    let at = 0;
    for (const { start, end, kind, wide } of merged(spans)) {
      const mask = Buffer.from(maskOf(kind), wide === undefined ? 'latin1' : 'utf16le');
      pieces.push(bytes.subarray(at, start), wide === 'be' ? mask.swap16() : mask);
      at = end;
    }
    pieces.push(bytes.subarray(at));
    return Buffer.concat(pieces);
  }

  /** A JSON value with every secret masked in each string and key. */
  maskDeep<T>(value: T): T {
    if (typeof value === 'string') return this.mask(value) as T;
    if (Array.isArray(value)) return value.map((v: unknown) => this.maskDeep(v)) as T;
    if (typeof value !== 'object' || value === null) return value;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      // defined, not assigned: a key "__proto__" stays a key
      Object.defineProperty(out, this.mask(k), { value: this.maskDeep(v), enumerable: true, writable: true, configurable: true });
    }
    return out as T;
  }
}
