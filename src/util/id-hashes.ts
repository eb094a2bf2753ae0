import { cyrb53 } from './hash.js';

/**
 * Ids as 53-bit hashes with their lines (a dataset's lines, or a report's result indexes), in typed arrays: a million ids cost 12 MB, where
 * a Map of strings would cost ten times that. Equal hashes are only candidates: the caller checks them
 * against the ids themselves.
 */
export class IdHashes {
  #hashes = new Float64Array(1024);
  #lines = new Uint32Array(1024);
  #n = 0;

  add(id: string, line: number): void {
    if (this.#n === this.#hashes.length) {
      this.#hashes = grow(this.#hashes, new Float64Array(this.#n * 2));
      this.#lines = grow(this.#lines, new Uint32Array(this.#n * 2));
    }
    this.#hashes[this.#n] = cyrb53(id);
    this.#lines[this.#n++] = line;
  }

  /** Lines whose id hash is shared with another line (ascending); usually none. */
  collidingLines(): Set<number> {
    const sorted = this.#hashes.slice(0, this.#n).sort();
    const shared = new Set<number>();
    for (let i = 1; i < sorted.length; i++) if (sorted[i] === sorted[i - 1]) shared.add(sorted[i]!);
    const lines = new Set<number>();
    if (shared.size === 0) return lines;
    for (let i = 0; i < this.#n; i++) if (shared.has(this.#hashes[i]!)) lines.add(this.#lines[i]!);
    return lines;
  }
}

function grow<T extends Float64Array | Uint32Array>(from: T, to: T): T {
  to.set(from);
  return to;
}
