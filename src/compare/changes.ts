import { closeSync, openSync, readSync, renameSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { mkdirs } from '../util/out-dir.js';
import { CHANGES_FILE, type ChangeLine } from './schema.js';

/** Where a comparison puts every listed question, in the order it finds them. */
export interface ChangeSink {
  add(line: ChangeLine): void;
}

/** Every change, re-readable: each iteration is a fresh pass. */
export interface ChangeSource extends Iterable<ChangeLine> {
  readonly count: number;
}

/** The changes in memory: for tests and small comparisons. */
export class ChangeList implements ChangeSink, ChangeSource {
  readonly lines: ChangeLine[] = [];
  get count(): number {
    return this.lines.length;
  }
  add(line: ChangeLine): void {
    this.lines.push(line);
  }
  [Symbol.iterator](): Iterator<ChangeLine> {
    return this.lines[Symbol.iterator]();
  }
}

const BLOCK = 1 << 16;

/**
 * The changes written as they come to a JSONL file (one change a line: the changes.jsonl format), read again in
 * order, one line at a time, by the renderers: memory does not grow with the changes (two reused 64 KiB buffers).
 * Written to `path` + `.tmp`; `commit` moves it to `path`, `discard` removes it.
 */
export class ChangeFile implements ChangeSink, ChangeSource {
  private readonly tmp: string;
  /** Where the lines are: the temporary file, then `path` once committed. */
  private file: string;
  private fd: number;
  private n = 0;
  private readonly out = Buffer.allocUnsafe(BLOCK);
  private used = 0;

  constructor(readonly path: string) {
    this.tmp = `${path}.tmp`;
    this.file = this.tmp;
    this.fd = openSync(this.tmp, 'w');
  }

  get count(): number {
    return this.n;
  }

  add(line: ChangeLine): void {
    const text = `${JSON.stringify(line)}\n`;
    this.n++;
    if (this.used + text.length * 3 > BLOCK) this.flush(); // at most 3 bytes a UTF-16 unit
    if (text.length * 3 > BLOCK) writeSync(this.fd, text);
    else this.used += this.out.write(text, this.used);
  }

  *[Symbol.iterator](): Iterator<ChangeLine> {
    this.flush();
    const fd = openSync(this.file, 'r');
    let buffer = Buffer.allocUnsafe(BLOCK);
    let start = 0;
    let end = 0;
    try {
      for (;;) {
        const nl = buffer.indexOf(10, start);
        if (nl >= 0 && nl < end) {
          yield JSON.parse(buffer.toString('utf8', start, nl)) as ChangeLine;
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

/**
 * Runs `fn` with a ChangeFile for `dir`/changes.jsonl (the directory made if need be): writeComparison moves it to
 * its name; when `fn` fails, the file is removed.
 */
export async function withChangeFile<T>(dir: string, fn: (changes: ChangeFile) => Promise<T>): Promise<T> {
  await mkdirs(dir);
  const changes = new ChangeFile(join(dir, CHANGES_FILE));
  try {
    return await fn(changes);
  } catch (error) {
    changes.discard();
    throw error;
  }
}
