import type { QuestionResult } from '../model/report.js';
import type { ReportHead } from '../model/source.js';
import { EntryIndex, type EntryInfo } from '../score/metrics/entries.js';
import { matchedAnswer } from '../score/result.js';

/**
 * The entries both runs know, for the category rule report.json uses (EntryIndex.categoryOf): seeded with both
 * reports' `metrics.entries` (which carry what a knowledge base given with --kb told), then `add` every result of
 * both reports. So a question keeps its category when one run never returned its answer.
 */
export function entryIndexOf(...heads: ReportHead[]): EntryIndex {
  const known: EntryInfo[] = heads.flatMap((h) => (h.metrics?.entries ?? []).map((e) => ({ sequence: e.sequence, label: e.label, category: e.category, text: e.text })));
  return new EntryIndex(known);
}

/**
 * The category of a common question (the same row on both sides): the row's expected_category, else its matching
 * answer's category in BASE, else in HEAD, else the expected entry's as either run tells, else "(out of scope)" for
 * rows expecting a fallback and "(category unknown)" for the rest. The report's rule, with both runs' answers.
 */
export function pairCategory(entries: EntryIndex, base: QuestionResult, head: QuestionResult): string {
  if (base.expected.category) return base.expected.category.join(' || ');
  return matchedAnswer(base)?.category || matchedAnswer(head)?.category || entries.categoryOf(base);
}
