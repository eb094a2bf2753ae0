import { quantileSorted } from 'd3-array';
import { histogram } from '../score/metrics/distribution.js';
import type { Drift, DriftGroup, QuestionSide } from './schema.js';

/** The entry a drifting question's top-1 is (the same on both sides): its label, else `#` and its sequence number. */
export const driftEntryKey = (top: NonNullable<QuestionSide['top1']>): string => top.label || `#${top.sequence_number}`;

/** Groups at most per breakdown: one per knowledge-base entry or category, so far fewer than questions. */
const MAX_GROUPS = 50_000;
const OTHER = '(other groups)';
const CHUNK = 1 << 15;

/**
 * Numbers appended in fixed-size chunks: growing never copies nor frees a large array (memory the allocator would
 * keep), and costs 8 bytes a number (4 for ids).
 */
class Chunked<A extends Float64Array | Uint32Array> {
  private readonly chunks: A[] = [];
  length = 0;

  constructor(private readonly make: (n: number) => A) {}

  push(v: number): void {
    const at = this.length % CHUNK;
    if (at === 0) this.chunks.push(this.make(CHUNK));
    this.chunks[this.chunks.length - 1]![at] = v;
    this.length++;
  }

  at(i: number): number {
    return this.chunks[Math.floor(i / CHUNK)]![i % CHUNK]!;
  }
}

/** Group keys as small numbers: the first `max` on their own, the rest together under OTHER. */
class Keys {
  readonly ids = new Map<string, number>();
  readonly keys: string[] = [];
  readonly texts: (string | null)[] = [];

  constructor(private readonly max: number) {}

  id(key: string, text: string | null): number {
    const known = this.ids.get(key);
    if (known !== undefined) return known;
    if (this.keys.length >= this.max) {
      const other = this.ids.get(OTHER);
      if (other !== undefined) return other;
      [key, text] = [OTHER, null];
    }
    const id = this.keys.push(key) - 1;
    this.ids.set(key, id);
    this.texts.push(text);
    return id;
  }
}

function group(key: string, text: string | null, sorted: Float64Array): DriftGroup {
  const at = (p: number) => quantileSorted(sorted as unknown as number[], p)!;
  let sum = 0;
  let up = 0;
  for (const d of sorted) {
    sum += d;
    if (d > 0) up++;
  }
  return { key, text, count: sorted.length, up, down: sorted.length - up, mean: sum / sorted.length, min: sorted[0]!, p10: at(0.1), p50: at(0.5), p90: at(0.9), max: sorted[sorted.length - 1]! };
}

/**
 * Score drift grouped by entry and by category, a question at a time: 16 bytes a drifting question (its delta and
 * its two group ids), sorted into groups once at the end (8 bytes more a question, one breakdown at a time).
 */
export class DriftCounter {
  private readonly entries: Keys;
  private readonly categories: Keys;
  private readonly deltas = new Chunked((n) => new Float64Array(n));
  private readonly entryOf = new Chunked((n) => new Uint32Array(n));
  private readonly categoryOf = new Chunked((n) => new Uint32Array(n));

  constructor(maxGroups = MAX_GROUPS) {
    this.entries = new Keys(maxGroups);
    this.categories = new Keys(maxGroups);
  }

  /** A drifting question: its top-1 entry (key and answer text), its category and its score delta. */
  add(entry: string, text: string, category: string, delta: number): void {
    this.deltas.push(delta);
    this.entryOf.push(this.entries.id(entry, text));
    this.categoryOf.push(this.categories.id(category, null));
  }

  result(): Drift {
    const byEntry = this.groups(this.entries, this.entryOf);
    const byCategory = this.groups(this.categories, this.categoryOf);
    return { byEntry: byEntry.groups, byCategory: byCategory.groups, histogram: histogram(byEntry.values, undefined, 20) };
  }

  /** Every delta placed by group (a counting sort), each group sorted: the groups, most questions first. */
  private groups(keys: Keys, ids: Chunked<Uint32Array>): { groups: DriftGroup[]; values: Float64Array } {
    const n = this.deltas.length;
    const starts = new Uint32Array(keys.keys.length + 1);
    for (let i = 0; i < n; i++) starts[ids.at(i) + 1]!++;
    for (let g = 1; g < starts.length; g++) starts[g]! += starts[g - 1]!;
    const next = starts.slice(0, -1);
    const values = new Float64Array(n);
    for (let i = 0; i < n; i++) values[next[ids.at(i)]!++] = this.deltas.at(i);
    const groups = keys.keys.map((key, g) => group(key, keys.texts[g]!, values.subarray(starts[g]!, starts[g + 1]!).sort()));
    groups.sort((a, b) => b.count - a.count || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    return { groups, values };
  }
}
