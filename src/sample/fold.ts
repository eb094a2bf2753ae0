import { SOURCE_LINES, type Groups } from './groups.js';
import { foldNearRepeats } from './near.js';

/** The questions of a log once repeats are folded: each the group of a representative and its near-repeats. */
export interface Folded {
  /** The representative group of each, most asked first (ties: the first asked first). */
  leader: Int32Array;
  /** How many times each was asked: its groups' counts together. */
  asked: Int32Array;
  /** The first SOURCE_LINES lines of each (0: none), ascending. */
  lines: Int32Array;
  /** Which of them each group was folded into. */
  of: Int32Array;
  /** Groups whose near-repeat search stopped at its limits (near.ts). */
  cut: number;
}

/** Folds the groups (exact repeats) into near-repeats of the most asked of them, and orders the result. */
export function foldGroups(groups: Groups, similarity: number): Folded {
  const n = groups.size;
  const { count, lines } = groups;
  const order = Int32Array.from({ length: n }, (_, i) => i).sort((a, b) => count[b]! - count[a]! || lines[a * SOURCE_LINES]! - lines[b * SOURCE_LINES]!);
  const { leaderOf, cut } = foldNearRepeats({ texts: groups.texts, language: groups.language, order }, similarity);

  // each representative's count and first lines, its near-repeats' added
  const total = new Int32Array(n);
  const first = new Int32Array(n * SOURCE_LINES);
  for (let g = 0; g < n; g++) {
    const to = leaderOf[g]!;
    total[to]! += count[g]!;
    for (let k = 0; k < SOURCE_LINES && lines[g * SOURCE_LINES + k] !== 0; k++) insertLine(first, to * SOURCE_LINES, lines[g * SOURCE_LINES + k]!);
  }
  const leaders = order.filter((g) => leaderOf[g] === g).sort((a, b) => total[b]! - total[a]! || first[a * SOURCE_LINES]! - first[b * SOURCE_LINES]!);
  const of = new Int32Array(n);
  const place = new Int32Array(n);
  leaders.forEach((g, i) => (place[g] = i));
  for (let g = 0; g < n; g++) of[g] = place[leaderOf[g]!]!;
  const asked = leaders.map((g) => total[g]!);
  const kept = new Int32Array(leaders.length * SOURCE_LINES);
  leaders.forEach((g, i) => kept.set(first.subarray(g * SOURCE_LINES, (g + 1) * SOURCE_LINES), i * SOURCE_LINES));
  return { leader: leaders, asked, lines: kept, of, cut };
}

/** Puts `line` among the SOURCE_LINES smallest at `at` (ascending, 0 for none) if it is one of them. */
function insertLine(lines: Int32Array, at: number, line: number): void {
  let k = SOURCE_LINES - 1;
  if (lines[at + k] !== 0 && lines[at + k]! < line) return;
  while (k > 0 && (lines[at + k - 1] === 0 || lines[at + k - 1]! > line)) {
    lines[at + k] = lines[at + k - 1]!;
    k--;
  }
  lines[at + k] = line;
}
