import { limits } from './limits.js';

/**
 * The one way answer-eval reads lines of JSON (report.json results, journal.jsonl, and the rules a JSONL question
 * set is held to): linear in the input, in bounded memory, whatever the file holds.
 *
 * - A line is at most `limits.lineBytes` (64 MiB; util/limits.ts): a file of gigabytes without a line break (NUL
 *   padding, random bytes, a device) is refused once that many bytes are read, not after holding the whole of it.
 * - A value nests at most MAX_JSON_DEPTH arrays and objects, checked by a scan before JSON.parse: every recursive
 *   step after the parse (schema checks, JSON.stringify, structuredClone, the report writers) then stays within
 *   the stack, and a line of `[[[[...` never becomes millions of arrays.
 */

/** The largest reply a run accepts (--max-response-bytes at most): 32 MiB, so that a result fits a line. */
export const MAX_RESPONSE_BYTES = 32 * 1024 * 1024;

/**
 * The deepest nesting of arrays and objects in a JSON value, the value itself being level 1. A question row is
 * 2 or 3 levels (a conversation's turns, `extra_data`), a result 4 plus what a reply nests (at most 32, see
 * client/nesting.ts); 64 is never needed by anything answer-eval writes.
 */
export const MAX_JSON_DEPTH = 64;

/** `16 MiB` for a size in bytes that is a whole number of GiB, MiB or KiB, else the bytes. */
export function sizeText(bytes: number): string {
  if (bytes >= 1024 ** 3 && bytes % 1024 ** 3 === 0) return `${bytes / 1024 ** 3} GiB`;
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / 1024 / 1024} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

/** One line of a file: its bytes (without the line break), where it starts, its 1-based number. */
export interface Line {
  /** Valid only until the next line is read (often a view into the read buffer). */
  bytes: Buffer;
  /** Byte offset of the line's first byte. */
  at: number;
  number: number;
  /** True when the file ends without a line break after it (a line cut short, or a file without a final newline). */
  last: boolean;
}

/** A line longer than the maximum: where it starts and its number. Its bytes are not kept. */
export interface LongLine {
  tooLong: true;
  at: number;
  number: number;
  /** True when it is known to be the last line (the file ends inside it); only set with `skipLong`. */
  last: boolean;
  /** Whether the bytes read of it hold a NUL byte (no JSON text does: a damaged or binary file). */
  nul: boolean;
  /** The maximum it passed. */
  max: number;
  /** With `skipLong`, where the next line starts (past its line break); the file's end for the last line. */
  end?: number;
}

export interface LineOptions {
  /** Byte offset of the first chunk in the file; default 0. */
  start?: number;
  /** Number of the first line; default 1. */
  firstLine?: number;
  /** Default `limits.lineBytes`. */
  maxBytes?: number;
  /**
   * False (the default): a line is reported as LongLine as soon as it passes the maximum (the caller stops there).
   * True: the rest of it is skipped without being kept, and it is reported at its end (with `last`), so a
   * caller can drop it and go on.
   */
  skipLong?: boolean;
}

/**
 * The lines of a stream of chunks. Each byte is looked at once (indexOf for line breaks); a line within one
 * chunk is a view into it, one spanning chunks is joined once, when it ends. Memory: one chunk and one line.
 */
export async function* splitLines(chunks: AsyncIterable<Buffer>, o: LineOptions = {}): AsyncGenerator<Line | LongLine> {
  const max = o.maxBytes ?? limits.lineBytes;
  let base = o.start ?? 0; // offset of the chunk being read
  let at = base; // where the current line starts
  let number = o.firstLine ?? 1;
  let parts: Buffer[] = []; // the current line's bytes in earlier chunks
  let held = 0;
  let skipping: LongLine | undefined; // a line past the maximum, being skipped
  for await (const chunk of chunks) {
    let from = 0;
    for (;;) {
      const nl = chunk.indexOf(10, from);
      const end = nl < 0 ? chunk.length : nl;
      if (skipping) skipping.nul ||= chunk.subarray(from, end).includes(0);
      else if (held + end - from > max) {
        skipping = { tooLong: true, at, number, last: false, nul: parts.some((p) => p.includes(0)) || chunk.subarray(from, end).includes(0), max };
        parts = [];
        held = 0;
        if (!o.skipLong) {
          yield skipping;
          return;
        }
      } else if (nl >= 0) {
        yield { bytes: held === 0 ? chunk.subarray(from, nl) : Buffer.concat([...parts, chunk.subarray(from, nl)]), at, number, last: false };
      } else if (end > from) {
        parts.push(Buffer.from(chunk.subarray(from))); // copied: a stream may reuse its memory for the next chunk
        held += end - from;
      }
      if (nl < 0) break;
      if (skipping) yield { ...skipping, end: base + nl + 1 };
      skipping = undefined;
      parts = [];
      held = 0;
      at = base + nl + 1;
      number++;
      from = nl + 1;
    }
    base += chunk.length;
  }
  if (skipping) yield { ...skipping, last: true, end: base };
  else if (held > 0) yield { bytes: Buffer.concat(parts), at, number, last: true };
}

/**
 * Why a JSON text could not be read: JSON.parse's message (control characters escaped: it quotes the text), or,
 * with `deep`, that it nests too deep (the text may be JSON, only not one answer-eval reads).
 */
export class JsonTextError extends Error {
  override name = 'JsonTextError';
  constructor(
    message: string,
    readonly deep = false,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** Text safe to print: control and bidirectional characters as `\uXXXX`, at most `max` characters. */
export function printable(text: string, max = 200): string {
  let out = '';
  for (const c of text.length > max ? text.slice(0, max) : text) {
    const n = c.charCodeAt(0);
    const unsafe = n < 0x20 || (n >= 0x7f && n <= 0x9f) || n === 0x2028 || n === 0x2029 || (n >= 0x202a && n <= 0x202e) || (n >= 0x2066 && n <= 0x2069) || n === 0xfffd;
    out += unsafe ? `\\u${n.toString(16).padStart(4, '0')}` : c;
  }
  return text.length > max ? `${out}…` : out;
}

/**
 * Where (the index of the bracket) a JSON text first nests deeper than `max`; -1 when it does not. A text with
 * no more than `max` opening brackets cannot, which the common case learns from a fast search; otherwise one scan
 * that skips strings.
 */
export function depthExceededAt(text: string, max = MAX_JSON_DEPTH): number {
  let brackets = 0;
  for (const open of ['[', '{']) {
    for (let i = text.indexOf(open); i >= 0 && brackets <= max; i = text.indexOf(open, i + 1)) brackets++;
  }
  if (brackets <= max) return -1;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // a string: to its closing quote, past escaped characters
      for (i++; i < text.length; i++) {
        const s = text.charCodeAt(i);
        if (s === 0x5c) i++;
        else if (s === 0x22) break;
      }
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return i;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return -1;
}

/**
 * JSON.parse, after checking the nesting (see MAX_JSON_DEPTH). Throws a JsonTextError saying what is wrong,
 * without naming the file: the caller adds `file:line`.
 */
export function parseJsonText(text: string, maxDepth = MAX_JSON_DEPTH): unknown {
  const deep = depthExceededAt(text, maxDepth);
  if (deep >= 0) throw new JsonTextError(`nests arrays and objects more than ${maxDepth} levels deep (at character ${deep + 1}), which nothing answer-eval reads needs`, true);
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new JsonTextError(text.includes('\u0000') ? 'holds NUL bytes, which no JSON text does (a damaged or binary file)' : printable((error as Error).message), false, { cause: error });
  }
}

/** What a line too long to read says, after `file:line: `. */
export const longLineMessage = (line: LongLine): string => `is longer than ${sizeText(line.max)}${line.nul ? ' and holds NUL bytes (a damaged or binary file)' : ''}`;
