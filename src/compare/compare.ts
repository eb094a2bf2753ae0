import { fallbackMissedFraction, ratio } from '../model/outcome.js';
import type { Report, Summary } from '../model/report.js';
import { summarize } from '../score/summary.js';
import { TOOL_NAME, TOOL_VERSION } from '../version.js';
import { classify, matchById, type Pair } from './classify.js';
import { checkComparable } from './compatibility.js';
import { accuracyDelta, compareSlices, judgedPairs, mcnemarOf, mrrDelta } from './paired.js';
import { expectedCategory } from './question.js';
import { COMPARE_SCHEMA_VERSION, type Comparison, type MetricDelta, type ReportRef } from './schema.js';

export interface CompareOptions {
  /** Names shown in messages and stored in compare.json. */
  files: { base: string; head: string };
  /** Compare even when the schemaVersion major or the agent differ. @default false */
  force?: boolean;
  /** A top-1 score change larger than this is score drift. @default 1e-6 */
  scoreEpsilon?: number;
  /** Bootstrap resamples. @default 2000 */
  resamples?: number;
  /** PRNG seed for the bootstrap, so intervals are reproducible. @default 1 */
  seed?: number;
  /** Interval coverage. @default 0.95 */
  confidence?: number;
}

export const COMPARE_DEFAULTS = { scoreEpsilon: 1e-6, resamples: 2000, seed: 1, confidence: 0.95 } as const;

const UNCATEGORIZED = '(category unknown)';

const ref = (report: Report, file: string): ReportRef => ({
  file,
  schemaVersion: report.schemaVersion,
  toolVersion: report.tool.version,
  startedAt: report.run.startedAt,
  status: report.run.status,
  agent: report.run.agent,
  baseUrl: report.run.baseUrl,
  dataset: report.run.dataset,
});

const delta = (base: number | null, head: number | null): MetricDelta => ({ base, head, delta: base === null || head === null ? null : head - base });

const metric = (b: Summary, h: Summary, pick: (s: Summary) => number | null): MetricDelta => delta(pick(b), pick(h));

/**
 * Compares two reports of the same agent, question by question (matched by id). Their datasets may differ:
 * questions added, removed or edited (`changed`) are listed apart, and the classes, statistics and metric deltas
 * use the questions common to both. Pure.
 */
export function compareReports(base: Report, head: Report, options: CompareOptions): Comparison {
  const forced = checkComparable(base, head, options.files, options.force ?? false);
  const o = { ...COMPARE_DEFAULTS, ...dropUndefined(options) };
  const stats = { resamples: o.resamples, seed: o.seed, confidence: o.confidence };
  const matched = matchById(base.results, head.results);
  const questions = classify(matched, o.scoreEpsilon);
  const paired = judgedPairs(matched.pairs);
  const mrr = mrrDelta(paired, stats);
  const tagsOf = (p: Pair) => [...p.base.tags, ...p.head.tags];
  const categoryOf = (p: Pair) => [expectedCategory(p.base) ?? expectedCategory(p.head) ?? UNCATEGORIZED];
  // the same questions on both sides: the reports' own summaries; otherwise those of the common questions
  const sameQuestions = matched.added.length + matched.removed.length + matched.changed.length === 0;
  const b = sameQuestions ? base.summary : summarize(matched.pairs.map((p) => p.base));
  const h = sameQuestions ? head.summary : summarize(matched.pairs.map((p) => p.head));
  return {
    schemaVersion: COMPARE_SCHEMA_VERSION,
    tool: { name: TOOL_NAME, version: TOOL_VERSION },
    base: ref(base, options.files.base),
    head: ref(head, options.files.head),
    forced,
    options: { scoreEpsilon: o.scoreEpsilon, resamples: o.resamples, seed: o.seed, confidence: o.confidence },
    counts: {
      common: matched.pairs.length,
      added: questions.added.length,
      removed: questions.removed.length,
      changed: questions.changed.length,
      paired: paired.length,
      broken: questions.broken.length,
      fixed: questions.fixed.length,
      top1Changed: questions.top1Changed.length,
      drift: questions.drift.length,
      errors: questions.errors.length,
    },
    questions,
    metrics: {
      top1Accuracy: metric(b, h, (s) => s.top1Accuracy),
      answerableAccuracy: metric(b, h, (s) => s.answerableAccuracy),
      fallbackMissedRate: metric(b, h, (s) => ratio(fallbackMissedFraction(s.outcomes))),
      dummyRate: metric(b, h, (s) => s.rates.dummy),
      floorRate: metric(b, h, (s) => s.rates.floor),
      errorRate: metric(b, h, (s) => s.rates.error),
      latencyP50: metric(b, h, (s) => s.latencyMs.p50),
      latencyP90: metric(b, h, (s) => s.latencyMs.p90),
    },
    paired: { n: paired.length, mcnemar: mcnemarOf(paired), top1Accuracy: accuracyDelta(paired, 'top1Accuracy', stats), mrr: mrr.mrr, mrrNote: mrr.note },
    slices: { tag: compareSlices(paired, tagsOf, 'tag', stats), category: compareSlices(paired, categoryOf, 'category', stats) },
  };
}

const dropUndefined = <T extends object>(o: T): Partial<T> => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
