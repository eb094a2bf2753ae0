import { C, SIDES, type PageAnswer, type PageData, type PageRow } from './data.js';

/** Numbers in English: 12,345. */
export const fmt = (n: number): string => n.toLocaleString('en');
/** A score to 3 decimals: a difference of two scores carries float noise (3.5e-15 is 0). */
export const num = (v: number): string => String(Math.round(v * 1000) / 1000 || 0);
/** A change with its sign: +0.5, −0.25, ±0. */
export function signed(v: number): string {
  const r = Number(num(v));
  return `${r > 0 ? '+' : r < 0 ? '−' : '±'}${num(Math.abs(r))}`;
}

const rr = (rank: number | null): number => (rank !== null && rank > 0 ? 1 / rank : 0);

/** The page data with the lookups the changes table needs. */
export interface CompareView {
  data: PageData;
  rows: PageData['rows'];
  /** A top-1 of a row: an index into data.answers, the answer itself past the table's cap, or null. */
  answerOf: (ref: number | PageAnswer | null) => PageAnswer | null;
  /** A class by its name (-1: none). */
  classOf: (key: string) => number;
  /** How large a change is: the page sorts by the measure the Node side chose the rows by (data.ts, sizeOf). */
  sizeOf: (r: PageRow) => [number, number];
}

export function compareView(data: PageData): CompareView {
  const drift = data.classes.indexOf('drift');
  // the sort calls sizeOf twice a comparison: the fields' places read once here
  const [baseRank, headRank, baseScore, headScore, cls] = [SIDES.base.rank, SIDES.head.rank, SIDES.base.score, SIDES.head.score, C.cls];
  return {
    data,
    rows: data.rows,
    answerOf: (ref) => (ref === null ? null : typeof ref === 'number' ? data.answers[ref]! : ref),
    classOf: (key) => data.classes.indexOf(key),
    sizeOf: (r) => {
      const rank = Math.abs(rr(r[headRank]) - rr(r[baseRank]));
      const moved = Math.abs((r[headScore] ?? 0) - (r[baseScore] ?? 0));
      return r[cls] === drift ? [moved, rank] : [rank, moved];
    },
  };
}

/** The top-1 score's change, head - base (null: a side has none). */
export const deltaOf = (r: PageRow): number | null => {
  const [b, h] = [r[SIDES.base.score], r[SIDES.head.score]];
  return b !== null && h !== null ? h - b : null;
};
