import type { Metrics } from './metrics.js';
import type { QuestionResult, Report } from './report.js';

/** Everything of a report but its results. */
export type ReportHead = Omit<Report, 'results'>;

/**
 * A report's results in dataset order. Every iteration is a fresh pass; a disk-backed source (a run's
 * journal) holds one result in memory at a time, so a pass costs time, not memory.
 */
export interface ResultSource extends Iterable<QuestionResult> {
  readonly count: number;
}

/** A report whose results may live on disk. */
export interface ReportData {
  head: ReportHead;
  results: ResultSource;
}

/** A report with its metrics (computed from the results when an older report.json lacks them): what every renderer takes. */
export interface ScoredData {
  head: ReportHead & { metrics: Metrics };
  results: ResultSource;
}

export const arraySource = (results: readonly QuestionResult[]): ResultSource => ({
  count: results.length,
  [Symbol.iterator]: () => results[Symbol.iterator](),
});

/** An in-memory report as ReportData. */
export function fromReport(report: Report): ReportData {
  const { results, ...head } = report;
  return { head, results: arraySource(results) };
}

/** Reads every result into memory: for small reports and tests. */
export const toReport = (data: ReportData): Report => ({ ...data.head, results: [...data.results] });
