import { cyrb53 } from '../util/hash.js';

/**
 * Slots of a report's results by id, through 53-bit hashes in typed arrays (open addressing): 16 to 32 bytes a
 * question where a Map of strings would cost ten times that. Equal hashes are only candidates: the caller checks
 * the ids themselves.
 */
export class IdIndex {
  private readonly hashes: Float64Array;
  /** slot + 1 at each position of the table; 0: free */
  private readonly table: Int32Array;
  private readonly mask: number;

  constructor(slots: number) {
    this.hashes = new Float64Array(slots);
    let size = 16;
    while (size < slots * 2) size *= 2;
    this.table = new Int32Array(size);
    this.mask = size - 1;
  }

  /**
   * Adds `id` at `slot`, unless a slot added before holds the same id: one with the same hash for which `same` (the
   * caller compares the ids) is true. Returns that slot, or -1 when `id` was added.
   */
  add(id: string, slot: number, same: (slot: number) => boolean = () => false): number {
    const hash = cyrb53(id);
    let at = hash % (this.mask + 1);
    for (; this.table[at] !== 0; at = (at + 1) & this.mask) {
      const earlier = this.table[at]! - 1;
      if (this.hashes[earlier] === hash && same(earlier)) return earlier;
    }
    this.hashes[slot] = hash;
    this.table[at] = slot + 1;
    return -1;
  }

  /** The slot whose id has the same hash as `id` and passes `matches` (the caller compares the ids); -1 when none. */
  find(id: string, matches: (slot: number) => boolean): number {
    const hash = cyrb53(id);
    for (let at = hash % (this.mask + 1); this.table[at] !== 0; at = (at + 1) & this.mask) {
      const slot = this.table[at]! - 1;
      if (this.hashes[slot] === hash && matches(slot)) return slot;
    }
    return -1;
  }
}
