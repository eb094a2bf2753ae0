import { isUtf8 } from 'node:buffer';
import { windows1252 } from '../util/windows-1252.js';
import { QuestionError } from '../model/ask-result.js';

const CHARSET = /;\s*charset\s*=\s*(?:"([^"]*)"|([^;\s]*))/i;

/** The charset a content-type declares; undefined when it declares none. */
export function declaredCharset(contentType: string | string[] | undefined): string | undefined {
  const header = Array.isArray(contentType) ? contentType[0] : contentType;
  const match = header === undefined ? null : CHARSET.exec(header);
  return match ? (match[1] ?? match[2] ?? '').trim() : undefined;
}

const decoders = new Map<string, TextDecoder | null>();

/** A decoder that throws on bytes invalid in its encoding, by WHATWG label (Node has full ICU); null for an unknown label. */
function decoderFor(label: string): TextDecoder | null {
  const key = label.toLowerCase();
  let decoder = decoders.get(key);
  if (decoder === undefined) {
    try {
      decoder = new TextDecoder(key, { fatal: true });
    } catch {
      decoder = null;
    }
    if (decoders.size < 64) decoders.set(key, decoder);
  }
  return decoder;
}

const isUtf8Label = (label: string): boolean => /^(?:utf-?8|unicode-1-1-utf-8)$/i.test(label);

/** Whether decodeBody reads a body of this content-type as UTF-8 (its text then holds every byte it holds, as UTF-8). */
export function readsAsUtf8(contentType: string | string[] | undefined): boolean {
  const declared = declaredCharset(contentType);
  return declared === undefined || declared === '' || isUtf8Label(declared);
}

/**
 * The text of a reply body, decoded with the charset its content-type declares (UTF-8 when none).
 * With `strict` (a 200, whose body is the answer), bytes invalid in that charset or an unknown charset are a
 * protocol error naming it: an answer is never decoded wrong nor with replacement characters. Without (an
 * error body, kept only as an excerpt), the body is decoded as best it can be.
 */
export function decodeBody(bytes: Buffer, contentType: string | string[] | undefined, strict: boolean): string {
  const declared = declaredCharset(contentType);
  const label = declared === undefined || declared === '' ? 'utf-8' : declared;
  if (isUtf8Label(label)) {
    // the usual case, kept fast: one validation pass, then Node's own decoder (a BOM is dropped, as TextDecoder does)
    if (!strict || isUtf8(bytes)) return stripBom(bytes.toString('utf8'));
    if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
      throw new QuestionError('protocol', 'the body is gzip-compressed (it starts with gzip\'s magic bytes), though no Accept-Encoding asked for it: the service or a proxy compresses unasked');
    }
    throw new QuestionError('protocol', `the body is not valid UTF-8 (${declared === undefined ? 'no charset declared, so UTF-8' : `content-type charset=${declared}`})`);
  }
  const decoder = decoderFor(label);
  if (decoder === null) {
    if (!strict) return stripBom(bytes.toString('utf8'));
    throw new QuestionError('protocol', `the content-type declares charset=${JSON.stringify(label)}, which is no known character encoding`);
  }
  // Node 20.18.3+ decodes windows-1252 (also the WHATWG meaning of iso-8859-1, latin1 and ascii) as ISO-8859-1,
  // so 0x80-0x9F come out as C1 controls rather than € and curly quotes (nodejs/node#60888): decoded here instead
  if (decoder.encoding === 'windows-1252') return windows1252(bytes);
  try {
    return decoder.decode(bytes);
  } catch (error) {
    if (!strict) return new TextDecoder(decoder.encoding).decode(bytes);
    throw new QuestionError('protocol', `the body is not valid ${decoder.encoding} (content-type charset=${label})`, { cause: error });
  }
}

const stripBom = (text: string): string => (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
