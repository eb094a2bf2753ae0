import type { Groups } from './groups.js';
import { foldNearRepeats } from './near.js';

/** The questions of a log once repeats are folded: each the group of a representative and its near-repeats. */
export interface Folded {
  /** The representative group of each, most asked first (ties: the first asked first). */
  leader: Int32Array;
  /** How many times each was asked: its groups' counts together. */
  asked: Int32Array;
  /** Which of them each group was folded into. */
  of: Int32Array;
  /** Groups whose near-repeat search stopped at its limits (near.ts). */
  cut: number;
}

/** Folds the groups (exact repeats) into near-repeats of the most asked of them, and orders the result. */
export function foldGroups(groups: Groups, similarity: number): Folded {
  const n = groups.size;
  const { count, first } = groups;
  const order = Int32Array.from({ length: n }, (_, i) => i).sort((a, b) => count[b]! - count[a]! || first[a]! - first[b]!);
  const { leaderOf, cut } = foldNearRepeats({ textOf: (g) => groups.textOf(g), language: groups.language, order }, similarity);

  // each representative's count and first line, its near-repeats' added
  const total = new Int32Array(n);
  const earliest = new Int32Array(n);
  for (let g = 0; g < n; g++) {
    const to = leaderOf[g]!;
    total[to]! += count[g]!;
    if (earliest[to] === 0 || first[g]! < earliest[to]!) earliest[to] = first[g]!;
  }
  const leader = order.filter((g) => leaderOf[g] === g).sort((a, b) => total[b]! - total[a]! || earliest[a]! - earliest[b]!);
  const place = new Int32Array(n);
  leader.forEach((g, i) => (place[g] = i));
  const of = new Int32Array(n);
  for (let g = 0; g < n; g++) of[g] = place[leaderOf[g]!]!;
  return { leader, asked: leader.map((g) => total[g]!), of, cut };
}
