import type { QuestionResult, Report } from '../model/report.js';
import type { Aliases } from '../model/expectations.js';
import { compileMatcher } from '../score/match.js';
import { isRanked } from '../score/metrics/rank-metrics.js';
import { scoreOrder } from '../score/rank.js';

export interface TrecFiles {
  /** `qid Q0 docno rank score runid`, answers in score order (ties in the service's order). */
  run: string;
  /** `qid 0 docno rel`: 1 for every answer seen that meets the row's expectations, 0 for the others. */
  qrels: string;
}

/** Placeholder docno that keeps a question with an empty list in the qrels (it scores 0, as in report.metrics). */
export const NO_DOC = 'none';

/** A TREC qid: the question id with whitespace replaced by `_`. */
export const qid = (id: string): string => id.replace(/\s+/g, '_') || '_';

/**
 * The TREC run and qrels of a report, over the questions rank metrics count (expectations given, no error).
 * docno = sequence_number. Relevance is recomputed from each row's expectations (with the same `aliases`
 * as the run); when a row expects only sequence numbers, those are relevant even if not returned.
 */
export function toTrec(report: Pick<Report, 'results'>, runId = 'answer-eval', aliases?: Aliases): TrecFiles {
  const run: string[] = [];
  const qrels: string[] = [];
  for (const r of report.results.filter(isRanked)) {
    const q = qid(r.id);
    scoreOrder(r.answers).forEach((i, at) => {
      const a = r.answers[i]!;
      run.push(`${q} Q0 ${a.sequence_number} ${at + 1} ${a.answer_score} ${runId}`);
    });
    const rel = relevance(r, aliases);
    if (rel.size === 0) rel.set(NO_DOC, 0);
    for (const [doc, value] of rel) qrels.push(`${q} 0 ${doc} ${value}`);
  }
  return { run: lines(run), qrels: lines(qrels) };
}

const lines = (rows: string[]): string => (rows.length === 0 ? '' : `${rows.join('\n')}\n`);

function relevance(r: QuestionResult, aliases?: Aliases): Map<string, number> {
  const matcher = compileMatcher(r.expected, aliases);
  const rel = new Map<string, number>();
  for (const a of r.answers) {
    const doc = String(a.sequence_number);
    rel.set(doc, Math.max(rel.get(doc) ?? 0, matcher(a) ? 1 : 0));
  }
  const { expect: _, sequence, ...others } = r.expected;
  if (sequence && Object.values(others).every((v) => v === undefined)) {
    for (const s of sequence) rel.set(String(aliases?.get(Number(s)) ?? Number(s)), 1);
  }
  return rel;
}
