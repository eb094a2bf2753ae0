// compare.html's page data: what src/compare/render/html/data.ts writes and the page reads. Types and field
// positions only, so both sides import it.

/** A distinct top-1 answer: [text, sequence_number, label, category]. Knowledge answers repeat across questions, so they are stored once. */
export type PageAnswer = [string, number, string, string];

/** Where each field of a PageAnswer sits. */
export const A = { text: 0, seq: 1, label: 2, category: 3 } as const;

/**
 * One listed question: [class index, id, question, tag indexes, category index, base outcome index (-1: none),
 * head outcome index (-1: none), base top-1 (an index into `answers`, or the answer itself once the table is full;
 * null: none), base top-1 score, head top-1, head top-1 score, base rank, head rank (of the first matching answer;
 * null: none or not recorded), note (error messages, edited parts) | null, [base question, base expectation, head
 * expectation] for edited questions | null]. Rows are in the order compare found them (BASE's dataset order).
 */
export type PageRow = [
  number, string, string, number[], number, number, number,
  number | PageAnswer | null, number | null, number | PageAnswer | null, number | null,
  number | null, number | null, string | null, [string, string, string] | null,
];

/** Where each field of a PageRow sits (`row[C.question]`); `base` and `head` name each side's fields. */
export const C = { cls: 0, id: 1, question: 2, tags: 3, category: 4, note: 13, edited: 14 } as const;

/** One side's fields of a PageRow: outcome, top-1, its score, the rank of the first matching answer. */
export const SIDES = {
  base: { outcome: 5, top: 7, score: 8, rank: 11 },
  head: { outcome: 6, top: 9, score: 10, rank: 12 },
} as const;
export type Side = keyof typeof SIDES;

/** A drift group: [key, count, up, down, mean, min, p10, p50, p90, max, the entry's answer text | null]. */
export type PageGroup = [string, number, number, number, number, number, number, number, number, number, string | null];

export interface PageData {
  /** The classes of change (compare's CHANGE_CLASS_ORDER), and how the page names, explains and colours them. */
  classes: readonly string[];
  classLabels: readonly string[];
  classTitles: readonly string[];
  classTones: readonly string[];
  /** Every question of each class, and how many of them the page holds (the largest first when not all). */
  counts: number[];
  shown: number[];
  outcomes: readonly string[];
  outcomeLabels: readonly string[];
  tags: string[];
  categories: string[];
  answers: PageAnswer[];
  rows: PageRow[];
  drift: { byEntry: PageGroup[]; byCategory: PageGroup[] };
}
