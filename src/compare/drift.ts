import { quantileSorted } from 'd3-array';
import { histogram } from '../score/metrics/distribution.js';
import { FloatList } from '../score/metrics/floats.js';
import type { Drift, DriftGroup, QuestionSide } from './schema.js';

/** The entry a drifting question's top-1 is (the same on both sides): its label, else `#` and its sequence number. */
export const driftEntryKey = (top: NonNullable<QuestionSide['top1']>): string => top.label || `#${top.sequence_number}`;

/** Groups at most per breakdown: one per knowledge-base entry or category, so far fewer than questions. */
const MAX_GROUPS = 50_000;
const OTHER = '(other groups)';

class Groups {
  private readonly deltas = new Map<string, { list: FloatList; text: string | null }>();

  add(key: string, delta: number, text: string | null = null): void {
    let group = this.deltas.get(key) ?? this.deltas.get(OTHER);
    if (!group) {
      const other = this.deltas.size >= MAX_GROUPS;
      this.deltas.set(other ? OTHER : key, (group = { list: new FloatList(), text: other ? null : text }));
    }
    group.list.push(delta);
  }

  result(): DriftGroup[] {
    return [...this.deltas]
      .map(([key, { list, text }]) => group(key, text, list.sorted()))
      .sort((a, b) => b.count - a.count || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
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

/** Score drift grouped by entry and by category, a question at a time; memory is 8 bytes a drifting question. */
export class DriftCounter {
  private readonly byEntry = new Groups();
  private readonly byCategory = new Groups();
  private readonly all = new FloatList();

  /** A drifting question: its top-1 entry (key and answer text), its category and its score delta. */
  add(entry: string, text: string, category: string, delta: number): void {
    this.byEntry.add(entry, delta, text);
    this.byCategory.add(category, delta);
    this.all.push(delta);
  }

  result(): Drift {
    return { byEntry: this.byEntry.result(), byCategory: this.byCategory.result(), histogram: histogram(this.all.values(), undefined, 20) };
  }
}
