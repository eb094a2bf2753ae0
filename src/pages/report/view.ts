import { A, R, type PageAnswer, type PageData } from './data.js';

/** The page data with the lookups every part of the page needs: a question's answers, top-1, outcome, flags. */
export interface PageView {
  data: PageData;
  rows: PageData['rows'];
  /** An answer of a row's list: an index into data.answers, or the answer itself past the table's cap. */
  answerOf: (ref: number | PageAnswer) => PageAnswer;
  /** Row i's top-1 answer and its score; null when it has none. */
  topOf: (i: number) => [PageAnswer, number] | null;
  /** Row i's answers with their scores and their place in the service's list, in that order. */
  answersOf: (i: number) => [PageAnswer, number, number][];
  /** Row i's outcome (its name) and how the page says it. */
  outcomeOf: (i: number) => string;
  outcomeLabelOf: (i: number) => string;
  /** The names of an answer's flags. */
  flagsOf: (a: PageAnswer) => string[];
  /** Whether row i's answers carry scores (a reply asked with --output text has none). */
  scored: (i: number) => boolean;
}

export function pageView(data: PageData): PageView {
  const rows = data.rows;
  const answerOf = (ref: number | PageAnswer): PageAnswer => (typeof ref === 'number' ? data.answers[ref]! : ref);
  return {
    data,
    rows,
    answerOf,
    topOf: (i) => {
      const r = rows[i]!;
      const p = r[R.top];
      return p < 0 ? null : [answerOf(r[R.answers][2 * p]!), r[R.answers][2 * p + 1] as number];
    },
    answersOf: (i) => {
      const list = rows[i]![R.answers];
      const pairs: [PageAnswer, number, number][] = [];
      for (let k = 0; k < list.length; k += 2) pairs.push([answerOf(list[k]!), list[k + 1] as number, k / 2]);
      return pairs;
    },
    outcomeOf: (i) => data.outcomes[rows[i]![R.outcome]]!,
    outcomeLabelOf: (i) => data.outcomeLabels[rows[i]![R.outcome]]!,
    flagsOf: (a) => data.flags.filter((_, k) => a[A.flags] & (1 << k)),
    scored: (i) => rows[i]![R.detail]?.reply?.output !== 'text',
  };
}

/** An answer's entry as the page names it: its label, or its sequence number. */
export const entryName = (a: PageAnswer): string => a[A.label] || `#${a[A.seq]}`;
