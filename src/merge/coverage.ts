import type { Coverage, CoverageEntry } from '../model/coverage.js';
import { coverageOf } from '../score/coverage.js';
import { cyrb53 } from '../util/hash.js';

/**
 * Which knowledge base a shard's coverage was measured against, for merge's identity check: its entries (sequence
 * number and label, in order) as `81 entries, 1f2e3d4c5b6a7`, and its floor. Absent without coverage.
 */
export function coverageIdentity(c: Coverage | undefined): { knowledgeBase: string; floor: number | null } | undefined {
  if (c === undefined) return undefined;
  const key = c.byEntry.map((e) => `${e.sequence}\u0000${e.label ?? ''}`).join('\u0001');
  return { knowledgeBase: `${c.entries} entries, ${cyrb53(key).toString(16)}`, floor: c.floor };
}

/**
 * The coverage of the shards' union: each entry's counts added up over the shards (checked to share one knowledge
 * base), so an entry is tested when a question of any shard names it. Undefined when the shards have none. Pure.
 */
export function mergeCoverage(shards: readonly (Coverage | undefined)[]): Coverage | undefined {
  const [first] = shards;
  if (first === undefined) return undefined;
  const byEntry: CoverageEntry[] = first.byEntry.map((e) => ({ ...e }));
  for (const c of shards.slice(1)) {
    c!.byEntry.forEach((e, i) => {
      const sum = byEntry[i]!;
      sum.questions += e.questions;
      sum.top1 += e.top1;
      sum.returned += e.returned;
      sum.belowFloor += e.belowFloor;
    });
  }
  return coverageOf(first.knowledgeBase, first.floor, byEntry);
}
