import { closeSync, openSync, readSync, renameSync, rmSync, writeSync } from 'node:fs';
import { createTempSync } from './temp-file.js';

const BLOCK = 1 << 16;

/**
 * Values written as they come to a JSONL file (one a line), read again in order, one line at a time: memory does
 * not grow with the values (two reused 64 KiB buffers). Written to a temporary file made exclusively beside `path`
 * (temp-file.ts); `commit` moves it to `path`, `discard` removes it.
 */
export class JsonLinesFile<T> implements Iterable<T> {
  private readonly tmp: string;
  /** Where the lines are: the temporary file, then `path` once committed. */
  private file: string;
  private fd: number;
  private n = 0;
  private readonly out = Buffer.allocUnsafe(BLOCK);
  private used = 0;

  constructor(readonly path: string) {
    ({ tmp: this.tmp, fd: this.fd } = createTempSync(path));
    this.file = this.tmp;
  }

  get count(): number {
    return this.n;
  }

  add(line: T): void {
    const text = `${JSON.stringify(line)}\n`;
    this.n++;
    if (this.used + text.length * 3 > BLOCK) this.flush(); // at most 3 bytes a UTF-16 unit
    if (text.length * 3 > BLOCK) writeSync(this.fd, text);
    else this.used += this.out.write(text, this.used);
  }

  *[Symbol.iterator](): Iterator<T> {
    this.flush();
    const fd = openSync(this.file, 'r');
    let buffer = Buffer.allocUnsafe(BLOCK);
    let start = 0;
    let end = 0;
    try {
      for (;;) {
        const nl = buffer.indexOf(10, start);
        if (nl >= 0 && nl < end) {
          yield JSON.parse(buffer.toString('utf8', start, nl)) as T;
          start = nl + 1;
          continue;
        }
        // no whole line left: keep the part read, make room (a line longer than the buffer grows it), read on
        if (start > 0) {
          buffer.copy(buffer, 0, start, end);
          end -= start;
          start = 0;
        } else if (end === buffer.length) {
          const larger = Buffer.allocUnsafe(buffer.length * 2);
          buffer.copy(larger, 0, 0, end);
          buffer = larger;
        }
        const read = readSync(fd, buffer, end, buffer.length - end, null);
        if (read === 0) break;
        end += read;
      }
    } finally {
      closeSync(fd);
    }
  }

  /** Closes the file and moves it to its name. */
  commit(): void {
    this.close();
    renameSync(this.tmp, this.path);
    this.file = this.path;
  }

  /** Removes the file, unless it was committed. */
  discard(): void {
    this.close();
    if (this.file === this.tmp) rmSync(this.tmp, { force: true });
  }

  private close(): void {
    this.flush();
    if (this.fd >= 0) closeSync(this.fd);
    this.fd = -1;
  }

  private flush(): void {
    if (this.used === 0 || this.fd < 0) return;
    writeSync(this.fd, this.out, 0, this.used);
    this.used = 0;
  }
}
