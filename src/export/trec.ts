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
  return { run: [...trecRun(report.results, runId)].join(''), qrels: [...trecQrels(report.results, aliases)].join('') };
}

/** The TREC run, a question at a time (see toTrec). */
export function* trecRun(results: Iterable<QuestionResult>, runId = 'answer-eval'): Generator<string> {
  for (const r of results) {
    if (!isRanked(r)) continue;
    const q = qid(r.id);
    yield scoreOrder(r.answers).map((i, at) => `${q} Q0 ${r.answers[i]!.sequence_number} ${at + 1} ${r.answers[i]!.answer_score} ${runId}\n`).join('');
  }
}

/** The TREC qrels, a question at a time (see toTrec). */
export function* trecQrels(results: Iterable<QuestionResult>, aliases?: Aliases): Generator<string> {
  for (const r of results) {
    if (!isRanked(r)) continue;
    const q = qid(r.id);
    const rel = relevance(r, aliases);
    if (rel.size === 0) rel.set(NO_DOC, 0);
    yield [...rel].map(([doc, value]) => `${q} 0 ${doc} ${value}\n`).join('');
  }
}

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
