import { isUtf8 } from 'node:buffer';
import { windows1252 } from '../util/windows-1252.js';
import { ConfigError, type InputProblem } from '../errors.js';
import { sizeText } from '../util/json-lines.js';
import { limits } from '../util/limits.js';

/**
 * The canonical name of a declared `--encoding` (any label TextDecoder knows: utf-8, latin1, windows-1252,
 * utf-16le, utf-16be, iso-8859-15, shift_jis, ...); undefined when none is declared.
 */
export function checkEncoding(label: string | undefined): string | undefined {
  if (label === undefined || label.trim() === '') return undefined;
  try {
    return new TextDecoder(label.trim()).encoding;
  } catch {
    throw new ConfigError(`--encoding "${label}" is not an encoding (expected e.g. utf-8, latin1, windows-1252, utf-16le, utf-16be)`);
  }
}

/** Thrown after an undecodable line is reported, so the parser stops there instead of seeing an early end. */
export class Undecodable extends Error {
  override name = 'Undecodable';
}

export interface DecodeOptions {
  /** The dataset's name in messages. */
  file: string;
  /** A declared encoding (checkEncoding); without one, UTF-8, or UTF-16 when the file starts with its BOM. */
  encoding: string | undefined;
  /** Where an undecodable line is reported; decoding stops there. */
  problems: Pick<InputProblem[], 'push'>;
}

/**
 * Decodes a dataset's bytes into pieces of text that end at a line break (the last one may not), so that a
 * byte sequence that is not valid in the encoding is reported at its line (then Undecodable is thrown). A BOM
 * is dropped. Without a declared encoding the bytes must be UTF-8 (or UTF-16 with a BOM): anything else is
 * refused at the first bad line, saying which encoding the bytes look like and how to read them.
 */
export async function* decodeLines(chunks: AsyncIterable<Buffer>, o: DecodeOptions): AsyncGenerator<string> {
  let held: Buffer[] = [];
  let heldBytes = 0;
  let encoding: string | undefined;
  let unit: Unit | undefined;
  let first = true;
  let linesBefore = 0;

  const decode = (bytes: Buffer): string => {
    const text = decodePiece(bytes, encoding!, first);
    if (text === undefined || (o.encoding === undefined && text.includes('\u0000'))) {
      o.problems.push(undecodable(bytes, unit!, encoding!, o, linesBefore, first));
      throw new Undecodable();
    }
    first = false;
    linesBefore += countLines(text);
    return text;
  };

  for await (const chunk of chunks) {
    if (encoding === undefined) {
      held.push(chunk);
      heldBytes += chunk.length;
      if (heldBytes < 4) continue;
      const start = Buffer.concat(held);
      held = [];
      heldBytes = 0;
      encoding = o.encoding ?? bomEncoding(start) ?? 'utf-8';
      unit = unitOf(encoding);
      yield* piecesOf(start);
    } else yield* piecesOf(chunk);
  }
  if (encoding === undefined) {
    const start = Buffer.concat(held);
    encoding = o.encoding ?? bomEncoding(start) ?? 'utf-8';
    unit = unitOf(encoding);
    held = [start];
    heldBytes = start.length;
  }
  if (heldBytes > 0) {
    const text = decode(Buffer.concat(held));
    if (text !== '') yield text;
  }

  // whole lines are decoded as soon as they are complete; the rest waits for the next chunk
  function* piecesOf(chunk: Buffer): Generator<string> {
    const end = lastLineEnd(chunk, heldBytes, unit!);
    // a line longer than a row can be is refused before it is held whole (/dev/zero, a file without line breaks)
    if (heldBytes > 0 && heldBytes + (end < 0 ? chunk.length : chunk.indexOf(0x0a)) > limits.rowBytes) {
      const nul = held.some((b) => b.includes(0)) ? ' and holds NUL bytes' : '';
      o.problems.push({ file: o.file, line: linesBefore + 1, message: `is longer than ${sizeText(limits.rowBytes)}${nul}: not a question set (a binary file, or one without line breaks)` });
      throw new Undecodable();
    }
    if (end < 0) {
      held.push(chunk);
      heldBytes += chunk.length;
      return;
    }
    const piece = held.length === 0 ? chunk.subarray(0, end) : Buffer.concat([...held, chunk.subarray(0, end)]);
    held = end < chunk.length ? [chunk.subarray(end)] : [];
    heldBytes = chunk.length - end;
    const text = decode(piece);
    if (text !== '') yield text;
  }
}

/** How a line break is spelled: one byte 0x0A, or a UTF-16 code unit. */
type Unit = 1 | 'le' | 'be';

const unitOf = (encoding: string): Unit => (encoding === 'utf-16le' ? 'le' : encoding === 'utf-16be' ? 'be' : 1);

function bomEncoding(start: Buffer): string | undefined {
  if (start[0] === 0xff && start[1] === 0xfe) return 'utf-16le';
  if (start[0] === 0xfe && start[1] === 0xff) return 'utf-16be';
  return undefined;
}

/**
 * The end (exclusive) of the last line break in `chunk`, or -1. `offset` is how many bytes of the current
 * piece came before the chunk, so a UTF-16 line break is only taken at a code-unit boundary.
 */
function lastLineEnd(chunk: Buffer, offset: number, unit: Unit): number {
  if (unit === 1) {
    const at = chunk.lastIndexOf(0x0a);
    return at < 0 ? -1 : at + 1;
  }
  for (let at = chunk.lastIndexOf(0x0a); at >= 0; at = at === 0 ? -1 : chunk.lastIndexOf(0x0a, at - 1)) {
    const start = unit === 'le' ? at : at - 1; // the unit's first byte
    if (start < 0 || start + 1 >= chunk.length || (offset + start) % 2 !== 0) continue;
    if (chunk[unit === 'le' ? at + 1 : at - 1] === 0) return start + 2;
  }
  return -1;
}

/** The text of whole lines, or undefined when a byte sequence is not valid in the encoding. */
function decodePiece(bytes: Buffer, encoding: string, first: boolean): string | undefined {
  if (encoding === 'utf-8') {
    if (!isUtf8(bytes)) return undefined;
    const text = bytes.toString('utf8');
    return first && text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  }
  if (encoding === 'windows-1252') return windows1252(bytes);
  try {
    return new TextDecoder(encoding, { fatal: true, ignoreBOM: !first }).decode(bytes);
  } catch {
    return undefined;
  }
}

function countLines(text: string): number {
  let n = 0;
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) n++;
  return n;
}

/** The first line of `piece` that does not decode (or holds a NUL), as a problem at its line. */
function undecodable(piece: Buffer, unit: Unit, encoding: string, o: DecodeOptions, linesBefore: number, first: boolean): InputProblem {
  const width = unit === 1 ? 1 : 2;
  let start = 0;
  for (let k = 0; ; k++) {
    let end = start;
    while (end < piece.length && !(piece[unit === 'be' ? end + 1 : end] === 0x0a && (unit === 1 || piece[unit === 'le' ? end + 1 : end] === 0))) end += width;
    const line = piece.subarray(start, Math.min(end + width, piece.length));
    const text = decodePiece(line, encoding, first && k === 0);
    if (end >= piece.length || text === undefined || (o.encoding === undefined && text.includes('\u0000'))) {
      return { file: o.file, line: linesBefore + k + 1, message: describe(line, text, encoding, o.encoding !== undefined) };
    }
    start = end + width;
  }
}

function describe(line: Buffer, text: string | undefined, encoding: string, declared: boolean): string {
  if (declared) {
    const shown = new TextDecoder(encoding).decode(line); // replacement characters where it fails
    const at = shown.indexOf('\ufffd');
    return `is not valid ${encoding} (--encoding ${encoding})${at > 0 ? `, after "${tail(shown.slice(0, at))}"` : ''}: check which encoding the file was saved in`;
  }
  if (utf16Share(line) > 0.25) {
    const order = zerosAt(line, 1) >= zerosAt(line, 0) ? 'le' : 'be';
    return `is not UTF-8: it holds NUL bytes, as UTF-16 text does (it looks like utf-16${order} without a byte-order mark): ` +
      `save the file as UTF-8, or pass --encoding utf-16${order}`;
  }
  if (text !== undefined) {
    // valid UTF-8 but for a stray NUL or two: no encoding reads that as text
    const at = text.indexOf('\u0000');
    return `holds a NUL byte${at > 0 ? `, after "${tail(text.slice(0, at))}"` : ' at the start of the line'}: a question set is text; remove it (or save the file as UTF-8 text)`;
  }
  const bad = firstInvalid(line);
  const byte = line[bad]!;
  const before = line.subarray(0, bad).toString('utf8');
  const cp1252 = line.some((b) => b >= 0x80 && b <= 0x9f);
  const looks = cp1252 ? 'windows-1252' : 'windows-1252 / ISO-8859-1 (Latin-1)';
  const meaning = windows1252(Buffer.of(byte));
  return `is not UTF-8 (byte 0x${byte.toString(16).toUpperCase().padStart(2, '0')}${before.trim() === '' ? ' at the start of the line' : `, after "${tail(before)}"`}); ` +
    `it looks like ${looks}, where that byte is "${meaning}": save the file as UTF-8, or pass --encoding ${cp1252 ? 'windows-1252' : 'latin1'}`;
}

const tail = (text: string, max = 24): string => {
  const t = text.replace(/[\r\n]+$/, '');
  return t.length > max ? `…${t.slice(-max)}` : t;
};

const zerosAt = (bytes: Buffer, parity: 0 | 1): number => {
  let n = 0;
  for (let i = parity; i < bytes.length; i += 2) if (bytes[i] === 0) n++;
  return n;
};

const utf16Share = (bytes: Buffer): number => (bytes.length === 0 ? 0 : Math.max(zerosAt(bytes, 0), zerosAt(bytes, 1)) / (bytes.length / 2));

/** The offset of the first byte that starts no valid UTF-8 sequence (the line is known to hold one). */
function firstInvalid(bytes: Buffer): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    const n = b < 0x80 ? 1 : b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    if (n === 0 || i + n > bytes.length || !isUtf8(bytes.subarray(i, i + n))) return i;
    i += n;
  }
  return Math.max(0, bytes.length - 1);
}
