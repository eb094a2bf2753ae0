import { Gzip, strToU8 } from 'fflate';

/** A table of distinct values, each given its index once (at most `max` of them). */
export function interner<T>(key: (value: T) => string, max = Infinity) {
  const index = new Map<string, number>();
  const values: T[] = [];
  return {
    values,
    /** The value's index, or undefined when it is new and the table is full. */
    id(value: T): number | undefined {
      const k = key(value);
      let i = index.get(k);
      if (i === undefined && values.length < max) index.set(k, (i = values.push(value) - 1));
      return i;
    },
  };
}

/** Bytes of compressed data turned into base64 together (a multiple of 3, so the pieces join into one base64 text). */
const BASE64_BLOCK = 3 * (1 << 15);
const TEXT_BLOCK = 1 << 16;

/** Text gzipped and base64-encoded a piece at a time: memory is one block of text and of compressed bytes. */
export function* gzipBase64(text: Iterable<string>): Generator<string> {
  let compressed: Uint8Array[] = [];
  let compressedBytes = 0;
  const gzip = new Gzip({ level: 6, mtime: 0 }, (chunk) => {
    compressed.push(chunk);
    compressedBytes += chunk.length;
  });
  const drain = (final: boolean): string => {
    if (compressedBytes < (final ? 1 : BASE64_BLOCK)) return '';
    const bytes = Buffer.concat(compressed, compressedBytes);
    const take = final ? bytes.length : bytes.length - (bytes.length % 3);
    compressed = take < bytes.length ? [bytes.subarray(take)] : [];
    compressedBytes = bytes.length - take;
    return bytes.subarray(0, take).toString('base64');
  };
  let pending = '';
  for (const piece of text) {
    pending += piece;
    if (pending.length < TEXT_BLOCK) continue;
    gzip.push(strToU8(pending));
    pending = '';
    const out = drain(false);
    if (out) yield out;
  }
  gzip.push(strToU8(pending), true);
  yield drain(true);
}
