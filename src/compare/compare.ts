import { fallbackMissedFraction, ratio } from '../model/outcome.js';
import type { Quarantine } from '../model/quarantine.js';
import type { QuestionResult, Report, Summary } from '../model/report.js';
import { fromReport, type ReportData, type ReportHead } from '../model/source.js';
import { TOOL_NAME, TOOL_VERSION } from '../version.js';
import { entryIndexOf } from './category.js';
import type { ChangeSink } from './changes.js';
import { Collector } from './collect.js';
import { checkComparable } from './compatibility.js';
import { unmeasuredOf } from './coverage.js';
import { compareCoverage } from './kb-coverage.js';
import { IdIndex } from './id-index.js';
import { checkTotal, duplicateId, ReportIds } from './integrity.js';
import { bySlot } from './results.js';
import { COMPARE_SCHEMA_VERSION, type Comparison, type MetricDelta, type ReportRef } from './schema.js';
import type { Standings } from './standings.js';

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
  /** The most questions each list of compare.json holds (the sink gets every one). @default 1000 */
  listLimit?: number;
  /** Questions and conversations whose break is not a regression: listed as "broke, but quarantined". */
  quarantine?: Quarantine;
}

export const COMPARE_DEFAULTS = { scoreEpsilon: 1e-6, resamples: 2000, seed: 1, confidence: 0.95, listLimit: 1000 } as const;

const ref = (report: ReportHead, file: string): ReportRef => ({
  file,
  schemaVersion: report.schemaVersion,
  toolVersion: report.tool.version,
  startedAt: report.run.startedAt,
  status: report.run.status,
  agent: report.run.agent,
  baseUrl: report.run.baseUrl,
  dataset: report.run.dataset,
  ...(report.run.shard ? { shard: report.run.shard } : {}),
});

const delta = (base: number | null, head: number | null): MetricDelta => ({ base, head, delta: base === null || head === null ? null : head - base });

const metric = (b: Summary, h: Summary, pick: (s: Summary) => number | null): MetricDelta => delta(pick(b), pick(h));

const nowhere: ChangeSink = { add: () => {} };

/**
 * Compares two reports of the same agent, question by question (matched by id), reading their results one at a
 * time (a report.json or a journal where its records sit: see `bySlot`). Their datasets may differ: questions
 * added, removed or edited (`changed`) are listed apart, and the classes, statistics and metric deltas use the
 * questions common to both. Every listed question goes to `sink` (changes.jsonl), in BASE's order (HEAD's for
 * added ones); compare.json's lists keep the first `listLimit`.
 *
 * Passes: HEAD once to index its ids (53-bit hashes and slots) and learn its entries; BASE once to learn its
 * entries (a question's category needs every entry either run shows) and once to match each question with HEAD's
 * (read by slot, nearly in order when the datasets are); then HEAD's unmatched slots. Conversations are paired on
 * the way (by id and turn: see ConversationPairs). Memory: 25 bytes a HEAD question, 8 a drifting one, and what
 * the Collector keeps. With `standings`, each failure of HEAD gets its standing against BASE (for junit.xml);
 * `eachHead` sees HEAD's results in HEAD's order, in the first pass (compare.junit.xml is rendered there).
 */
export function compareData(
  base: ReportData,
  head: ReportData,
  options: CompareOptions,
  sink: ChangeSink = nowhere,
  standings?: Standings,
  eachHead?: (result: QuestionResult) => void,
): Comparison {
  const forced = checkComparable(base.head, head.head, options.files, options.force ?? false);
  const o = { ...COMPARE_DEFAULTS, ...dropUndefined(options) };
  const stats = { resamples: o.resamples, seed: o.seed, confidence: o.confidence };
  const entries = entryIndexOf(base.head, head.head);
  const heads = bySlot(head.results);
  const collector = new Collector(entries, sink, { ...o, standings });
  try {
    const index = new IdIndex(heads.slots);
    for (const { result, slot } of heads.each()) {
      const earlier = index.add(result.id, slot, (s) => heads.at(s)?.id === result.id);
      if (earlier >= 0) throw duplicateId(options.files.head, head.results, result.id, earlier, slot);
      entries.add(result);
      eachHead?.(result);
    }
    const baseIds = new ReportIds();
    for (const r of base.results) {
      baseIds.add(r.id);
      entries.add(r);
    }
    baseIds.check(options.files.base, base.results);
    checkTotal(options.files.base, base);
    checkTotal(options.files.head, head);
    const seen = new Uint8Array(heads.slots);
    for (const b of base.results) {
      let h: QuestionResult | undefined;
      const slot = index.find(b.id, (s) => (h = heads.at(s))?.id === b.id);
      if (slot < 0) collector.removed(b);
      else {
        seen[slot] = 1;
        collector.matched({ base: b, head: h! });
      }
    }
    for (let slot = 0; slot < heads.slots; slot++) {
      const h = seen[slot] ? undefined : heads.at(slot);
      if (h) collector.added(h);
    }
  } catch (error) {
    collector.dispose();
    throw error;
  } finally {
    heads.close();
  }

  const n = collector.counts;
  // the same questions on both sides: the reports' own summaries; otherwise those of the common questions
  const common = collector.summaries();
  const sameQuestions = n.added + n.removed + n.changed === 0;
  const b = sameQuestions ? base.head.summary : common.base;
  const h = sameQuestions ? head.head.summary : common.head;
  const mrr = collector.paired.mrrDelta('mrr', stats);
  const conversations = collector.conversations.result();
  const quarantine = collector.quarantine();
  const unmeasured = unmeasuredOf(base.head, head.head, n.removed);
  const kbCoverage = compareCoverage(base.head.coverage, head.head.coverage);
  return {
    schemaVersion: COMPARE_SCHEMA_VERSION,
    tool: { name: TOOL_NAME, version: TOOL_VERSION },
    base: ref(base.head, options.files.base),
    head: ref(head.head, options.files.head),
    forced,
    ...(quarantine ? { quarantine } : {}),
    options: { scoreEpsilon: o.scoreEpsilon, resamples: o.resamples, seed: o.seed, confidence: o.confidence, listLimit: o.listLimit },
    counts: n,
    ...(unmeasured ? { unmeasured } : {}),
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
    paired: { n: n.paired, mcnemar: collector.paired.mcnemar(), top1Accuracy: collector.paired.accuracyDelta('top1Accuracy', stats), mrr: mrr.mrr, mrrNote: mrr.note },
    slices: { tag: collector.tags.result(stats), category: collector.categories.result(stats) },
    drift: collector.drift.result(),
    questions: collector.questions,
    ...(conversations ? { conversations } : {}),
    ...(kbCoverage ? { kbCoverage } : {}),
  };
}

/** compareData on two reports in memory (the changes past compare.json's lists are not kept). Pure. */
export const compareReports = (base: Report, head: Report, options: CompareOptions, sink?: ChangeSink, standings?: Standings): Comparison =>
  compareData(fromReport(base), fromReport(head), options, sink, standings);

const dropUndefined = <T extends object>(o: T): Partial<T> => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
