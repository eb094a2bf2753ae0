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
    const readers = this.paths.map(() => ({ fd: -1, window: Buffer.alloc(0), start: 0, end: 0 }));
    try {
      for (let i = 0; i < this.offsets.length; i++) {
        const offset = this.offsets[i]!;
        if (Number.isNaN(offset)) continue;
        const length = this.lengths[i]!;
        const file = this.files?.[i] ?? 0;
        const r = readers[file]!;
        if (r.fd < 0) {
          r.fd = openSync(this.paths[file]!, 'r');
          r.window = Buffer.allocUnsafe(1024 * 1024);
        }
        let bytes: Buffer;
        if (length > r.window.length) {
          bytes = Buffer.allocUnsafe(length);
          readSync(r.fd, bytes, 0, length, offset);
        } else {
          if (offset < r.start || offset + length > r.end) {
            r.start = offset;
            r.end = offset + readSync(r.fd, r.window, 0, r.window.length, offset);
          }
          bytes = r.window.subarray(offset - r.start, offset - r.start + length);
        }
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
      for (const r of readers) if (r.fd >= 0) closeSync(r.fd);
    }
  }
}
