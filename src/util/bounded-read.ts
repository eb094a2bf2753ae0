import { open } from 'node:fs/promises';
import { sizeText } from './json-lines.js';

/** How long a read may wait for its first bytes (a FIFO nobody writes to) before `onWait` is told. */
export const WAIT_NOTICE_MS = 3000;

/** Why a file could not be read whole: too large, or not text. `message` follows `file:` (or `file:line:`). */
export class UnreadableFile extends Error {
  override name = 'UnreadableFile';
  constructor(
    message: string,
    /** The 1-based line of the first NUL byte, or 0. */
    readonly line = 0,
  ) {
    super(message);
  }
}

/** What a read that has had nothing for WAIT_NOTICE_MS says. */
export const waitNotice = (path: string): string =>
  `waiting for ${path}: nothing has come from it for ${WAIT_NOTICE_MS / 1000} s (a pipe that nobody writes to? Ctrl-C stops)`;

export interface BoundedReadOptions {
  /** The most bytes read; one more is an UnreadableFile. */
  maxBytes: number;
  /** Refuse a NUL byte (no text file of ours holds one): a device such as /dev/zero, a binary file. */
  text?: boolean;
  /** Told once when nothing has come for WAIT_NOTICE_MS (a FIFO nobody has written to yet). */
  onWait?: (message: string) => void;
}

/**
 * A whole file, read in chunks and refused as soon as it passes `maxBytes` (or, as text, holds a NUL byte): a
 * device or a pipe that never ends costs that many bytes at most. File system errors pass through, for the
 * caller to name.
 */
export async function readBounded(path: string, o: BoundedReadOptions): Promise<Buffer> {
  const waiting = o.onWait && setTimeout(() => o.onWait!(waitNotice(path)), WAIT_NOTICE_MS).unref();
  const handle = await open(path).catch((error: unknown) => {
    clearTimeout(waiting);
    throw error;
  });
  const parts: Buffer[] = [];
  let size = 0;
  let lines = 1;
  try {
    for await (const chunk of handle.createReadStream({ highWaterMark: 1024 * 1024, autoClose: false }) as AsyncIterable<Buffer>) {
      clearTimeout(waiting);
      if (o.text) {
        const nul = chunk.indexOf(0);
        if (nul >= 0) throw new UnreadableFile(`holds a NUL byte at byte ${size + nul}: not a text file`, lines + countLineBreaks(chunk.subarray(0, nul)));
        lines += countLineBreaks(chunk);
      }
      size += chunk.length;
      if (size > o.maxBytes) throw new UnreadableFile(`is larger than ${sizeText(o.maxBytes)} (the most answer-eval reads of such a file)`);
      parts.push(chunk);
    }
  } finally {
    clearTimeout(waiting);
    await handle.close();
  }
  return Buffer.concat(parts, size);
}

function countLineBreaks(bytes: Buffer): number {
  let n = 0;
  for (let at = bytes.indexOf(10); at >= 0; at = bytes.indexOf(10, at + 1)) n++;
  return n;
}
