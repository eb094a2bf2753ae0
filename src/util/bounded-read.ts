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

let notify: ((message: string) => void) | undefined;

/** Where a read that waits for input says so (the CLI: on stderr); nowhere until set. */
export function sayWhenWaiting(f: ((message: string) => void) | undefined): void {
  notify = f;
}

/**
 * Watches a read of `path`: when nothing has come for WAIT_NOTICE_MS (a FIFO nobody writes to, a pipe whose writer
 * stalls), says so once per wait, so a read never hangs silently. `poke()` as each chunk comes, `stop()` at the end.
 */
export function waitWatch(path: string): { poke: () => void; stop: () => void } {
  let timer: NodeJS.Timeout | undefined;
  const poke = (): void => {
    clearTimeout(timer);
    const say = notify;
    if (say) timer = setTimeout(() => say(`waiting for ${path}: nothing has come from it for ${WAIT_NOTICE_MS / 1000} s (a pipe that nobody writes to? Ctrl-C stops)`), WAIT_NOTICE_MS).unref();
  };
  poke();
  return { poke, stop: () => clearTimeout(timer) };
}

export interface BoundedReadOptions {
  /** The most bytes read; one more is an UnreadableFile. */
  maxBytes: number;
  /** Refuse a NUL byte (no text file of ours holds one): a device such as /dev/zero, a binary file. */
  text?: boolean;
  /**
   * Judges the first line (or the first 64 KiB, without a line break) as soon as it is read: why the file is not
   * what was expected, or undefined. A stream that is plainly something else (`yes |`) stops there.
   */
  firstLine?: (line: string) => string | undefined;
}

/**
 * A whole file, read in chunks and refused as soon as it passes `maxBytes` (or, as text, holds a NUL byte): a
 * device or a pipe that never ends costs that many bytes at most, and a wait for input is said (waitWatch). File
 * system errors pass through, for the caller to name.
 */
export async function readBounded(path: string, o: BoundedReadOptions): Promise<Buffer> {
  const waiting = waitWatch(path);
  const handle = await open(path).catch((error: unknown) => {
    waiting.stop();
    throw error;
  });
  const parts: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of handle.createReadStream({ highWaterMark: 1024 * 1024, autoClose: false }) as AsyncIterable<Buffer>) {
      waiting.poke();
      if (o.text) {
        const nul = chunk.indexOf(0);
        // lines are counted only here: counting as it reads would cost more than the read on a pipe of `y\n`
        if (nul >= 0) throw new UnreadableFile(`holds a NUL byte at byte ${size + nul}: not a text file`, 1 + parts.reduce((n, p) => n + countLineBreaks(p), 0) + countLineBreaks(chunk.subarray(0, nul)));
      }
      if (o.firstLine && size < 64 * 1024) {
        const nl = chunk.indexOf(10);
        if (nl >= 0 || size + chunk.length >= 64 * 1024) {
          const why = o.firstLine(Buffer.concat([...parts, nl < 0 ? chunk : chunk.subarray(0, nl)]).toString('utf8'));
          if (why !== undefined) throw new UnreadableFile(why, 1);
          o = { ...o, firstLine: undefined };
        }
      }
      size += chunk.length;
      if (size > o.maxBytes) throw new UnreadableFile(`is larger than ${sizeText(o.maxBytes)}, the most answer-eval reads of it`);
      parts.push(chunk);
    }
  } finally {
    waiting.stop();
    await handle.close();
  }
  return Buffer.concat(parts, size);
}

function countLineBreaks(bytes: Buffer): number {
  let n = 0;
  for (let at = bytes.indexOf(10); at >= 0; at = bytes.indexOf(10, at + 1)) n++;
  return n;
}
