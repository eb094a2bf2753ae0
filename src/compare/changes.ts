import { closeSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { RecordSource } from '../util/records.js';
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

/**
 * The changes written as they come to a JSONL file (one change a line, the changes.jsonl format), keeping where
 * each line sits (12 bytes a change) so renderers can read them again one at a time: memory does not grow with
 * the changes. Written to `path` + `.tmp`; `commit` moves it to `path`, `discard` removes it.
 */
export class ChangeFile implements ChangeSink, ChangeSource {
  private readonly tmp: string;
  /** Where the lines are: the temporary file, then `path` once committed. */
  private file: string;
  private fd: number;
  private offsets = new Float64Array(1 << 12);
  private lengths = new Uint32Array(1 << 12);
  private n = 0;
  private at = 0;
  private pending: string[] = [];
  private pendingBytes = 0;

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
    const bytes = Buffer.byteLength(text);
    if (this.n === this.offsets.length) {
      const offsets = new Float64Array(this.n * 2);
      offsets.set(this.offsets);
      this.offsets = offsets;
      const lengths = new Uint32Array(this.n * 2);
      lengths.set(this.lengths);
      this.lengths = lengths;
    }
    this.offsets[this.n] = this.at;
    this.lengths[this.n++] = bytes - 1;
    this.at += bytes;
    this.pending.push(text);
    this.pendingBytes += bytes;
    if (this.pendingBytes >= 1 << 16) this.flush();
  }

  [Symbol.iterator](): Iterator<ChangeLine> {
    this.flush();
    return new RecordSource<ChangeLine>([this.file], this.offsets.subarray(0, this.n), this.lengths.subarray(0, this.n), this.n)[Symbol.iterator]();
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
    if (this.pending.length === 0 || this.fd < 0) return;
    writeSync(this.fd, this.pending.join(''));
    this.pending = [];
    this.pendingBytes = 0;
  }
}

/**
 * Runs `fn` with a ChangeFile for `dir`/changes.jsonl (the directory made if need be): writeComparison moves it to
 * its name; when `fn` fails, the file is removed.
 */
export async function withChangeFile<T>(dir: string, fn: (changes: ChangeFile) => Promise<T>): Promise<T> {
  await mkdir(dir, { recursive: true });
  const changes = new ChangeFile(join(dir, CHANGES_FILE));
  try {
    return await fn(changes);
  } catch (error) {
    changes.discard();
    throw error;
  }
}
