import { closeSync, openSync, readSync } from 'node:fs';
import { ConfigError } from '../errors.js';

/**
 * JSON records read back from files in a given order, one at a time: slot i is the `lengths[i]` bytes at
 * `offsets[i]` (NaN: none) of `paths[files[i]]`. Each file is read through a 1 MiB window and records come nearly
 * in file order, so a pass is a sequential read; memory is 12 bytes a slot (13 with several files). Every
 * iteration is a fresh pass.
 */
export class RecordSource<T> implements Iterable<T> {
  constructor(
    readonly paths: readonly string[],
    readonly offsets: Float64Array,
    readonly lengths: Uint32Array,
    readonly count: number,
    /** Which path each slot reads from; all the first when absent. */
    readonly files?: Uint8Array,
  ) {}

  *[Symbol.iterator](): Iterator<T> {
    const readers = this.paths.map((path) => new WindowReader(path));
    try {
      for (let i = 0; i < this.offsets.length; i++) {
        const offset = this.offsets[i]!;
        if (Number.isNaN(offset)) continue;
        const file = this.files?.[i] ?? 0;
        const bytes = readers[file]!.read(offset, this.lengths[i]!);
        let value: T;
        try {
          value = JSON.parse(bytes.toString('utf8')) as T;
        } catch {
          // every record was checked when it was found: the file was changed since
          throw new ConfigError(`${this.paths[file]!}: changed while it was being read (byte ${offset} no longer begins a record): read it again once nothing writes to it`);
        }
        yield value;
      }
    } finally {
      for (const r of readers) r.close();
    }
  }
}

/**
 * The bytes at given offsets of a file, read through a 1 MiB window (opened at the first read): records that come
 * nearly in file order cost one sequential read. A view into the window, valid until the next read.
 */
export class WindowReader {
  #fd = -1;
  #window = Buffer.alloc(0);
  #start = 0;
  #end = 0;

  constructor(readonly path: string) {}

  read(offset: number, length: number): Buffer {
    if (this.#fd < 0) {
      this.#fd = openSync(this.path, 'r');
      this.#window = Buffer.allocUnsafe(1024 * 1024);
    }
    if (length > this.#window.length) {
      const bytes = Buffer.allocUnsafe(length);
      return bytes.subarray(0, readSync(this.#fd, bytes, 0, length, offset));
    }
    if (offset < this.#start || offset + length > this.#end) {
      this.#start = offset;
      this.#end = offset + readSync(this.#fd, this.#window, 0, this.#window.length, offset);
    }
    return this.#window.subarray(offset - this.#start, Math.min(offset - this.#start + length, this.#end - this.#start));
  }

  close(): void {
    if (this.#fd >= 0) closeSync(this.#fd);
    this.#fd = -1;
  }
}
