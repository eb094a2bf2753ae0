import type { Coverage } from '../../model/coverage.js';
import type { Metrics } from '../../model/metrics.js';
import { answerableFraction, hasResponse, OUTCOME_CLASSES, outOfScopeFraction, top1Fraction } from '../../model/outcome.js';
import type { QuestionResult, Summary } from '../../model/report.js';
import type { ReportData, ResultSource, ScoredData } from '../../model/source.js';
import { CoverageCounter, type CoverageBase } from '../coverage.js';
import { answerOutcome } from '../outcome.js';
import { hasScores, top1 } from '../result.js';
import { Tally } from '../tally.js';
import { SliceGroups } from './breakdowns.js';
import { EntryIndex, EntryTable, type EntryInfo } from './entries.js';
import { ConfusionCounter } from './confusions.js';
import { ConsistencyCounter } from './consistency.js';
import { ConversationCounter } from './conversations.js';
import { BinCounter, Extent, sortedDistribution } from './distribution.js';
import { ScoreTable } from './floats.js';
import { RankAccumulator } from './rank-metrics.js';
import { thresholdAnalysis, ThresholdAccumulator, type ThresholdOptions } from './thresholds.js';
import { wilson } from './wilson.js';

const hasLatency = (r: QuestionResult): r is QuestionResult & { latencyMs: number } => hasResponse(r.outcome) && r.latencyMs !== null;

/**
 * Which score distribution a result's top-1 score goes to, by its answer's outcome (answerOutcome: a `check_failed`
 * turn whose answer met its expectations is correct): `correct`, or wrong / abstained / fallback missed; undefined for
 * a right refusal, an unlabeled answer or an error.
 */
const scoreGroup = (r: QuestionResult): 'correct' | 'notCorrect' | undefined => {
  const o = answerOutcome(r);
  const c = OUTCOME_CLASSES[o];
  return !c.judged ? undefined : o === 'correct' ? 'correct' : c.failing ? 'notCorrect' : undefined;
};

/** The marks of a score in the distribution of its group (ScoreTable), beside its threshold analysis marks (THRESHOLD_MARKS). */
const GROUP_MARK = { correct: 0x20, notCorrect: 0x40 } as const;
const GROUP_MARKS = 0x60;

export interface ScoreOptions {
  /** The entries of the knowledge base, when it is known (the embedded engine's, or --kb): their categories and texts. */
  knowledgeBase?: readonly EntryInfo[];
  /** How the recommended floor threshold is chosen. */
  thresholds?: ThresholdOptions;
  /** The knowledge base to measure the question set's coverage of (report.json `coverage`), when it is known. */
  coverage?: CoverageBase;
}

/**
 * A report's `summary` and `metrics` from the results alone (and the knowledge base, when known: then its `coverage` too), in two passes
 * over the source. The first counts (Tally), and accumulates rank sums, per-slice accumulators, confusions, the
 * entries the answers show and the top-1 scores (the only per-question memory: one ScoreTable of 9 bytes a question,
 * sized from the source's count, for the percentiles and the threshold curve); the second needs what the first learned: the entries' categories (category
 * breakdown), the expected entry of each question (entry table) and the latency range (histogram).
 */
export function scoreResults(results: ResultSource, options: ScoreOptions = {}): { summary: Summary; metrics: Metrics; coverage?: Coverage } {
  const tally = new Tally();
  const rank = new RankAccumulator();
  // the top-1 scores, shared by the score distributions and the threshold analysis, sized once
  const scores = new ScoreTable(results.count);
  const scoreExtent = new Extent();
  const latencyExtent = new Extent();
  const thresholds = new ThresholdAccumulator(scores);
  const language = new SliceGroups((r) => [r.language]);
  const tag = new SliceGroups((r) => r.tags);
  const entries = new EntryIndex(options.knowledgeBase);
  const confusions = new ConfusionCounter();
  const consistency = new ConsistencyCounter();
  const conversations = new ConversationCounter();
  const coverage = options.coverage && new CoverageCounter(options.coverage);

  try {
    for (const r of results) {
      tally.add(r);
      const top = top1(r);
      // a text reply has no scores: left out of the score distributions (and of the threshold analysis)
      const group = top === undefined || !hasScores(r) ? undefined : scoreGroup(r);
      if (group !== undefined) scoreExtent.add(top!.answer_score);
      const mark = thresholds.mark(r) | (group === undefined ? 0 : GROUP_MARK[group]);
      if (mark !== 0) scores.push(top!.answer_score, mark);
      if (hasLatency(r)) latencyExtent.add(r.latencyMs);
      rank.add(r);
      language.add(r);
      tag.add(r);
      entries.add(r);
      confusions.add(r);
      consistency.add(r);
      conversations.add(r);
      coverage?.add(r);
    }
  } catch (error) {
    tally.dispose();
    throw error;
  }

  const category = new SliceGroups(entries.keysOf);
  const entryTable = new EntryTable(entries);
  const latencyDomain = latencyExtent.get();
  const latencyBins = latencyDomain && BinCounter.nice(latencyDomain);
  for (const r of results) {
    category.add(r);
    entryTable.add(r);
    if (latencyBins && hasLatency(r)) latencyBins.add(r.latencyMs);
  }

  const { outcomes, total } = tally;
  const latency = tally.latencyResult();
  const scoreDomain = scoreExtent.get();
  const top1Acc = top1Fraction(outcomes);
  const answerableAcc = answerableFraction(outcomes);
  const outOfScope = outOfScopeFraction(outcomes);
  const repeated = consistency.result();
  const dialogues = conversations.result();
  const thresholdResult = thresholds.result(options.thresholds); // its lists go before the distributions' are made
  const groups = scores.split(GROUP_MARKS);
  const metrics: Metrics = {
    intervals: {
      top1Accuracy: wilson(top1Acc.successes, top1Acc.n),
      answerableAccuracy: wilson(answerableAcc.successes, answerableAcc.n),
      outOfScopeRecall: wilson(outOfScope.successes, outOfScope.n),
      rates: {
        dummy: wilson(tally.dummy, total),
        floor: wilson(tally.floor, total),
        suggestion: wilson(tally.suggestion, total),
        empty: wilson(tally.empty, total),
        error: wilson(outcomes.error, total),
      },
    },
    rank: rank.result(),
    scores: { correct: sortedDistribution(groups[GROUP_MARK.correct]!, scoreDomain), notCorrect: sortedDistribution(groups[GROUP_MARK.notCorrect]!, scoreDomain) },
    latency: { ...latency, histogram: latencyBins ? latencyBins.result() : { edges: [], counts: [] } },
    thresholds: thresholdResult,
    breakdowns: { language: language.result(), tag: tag.result(), category: category.result() },
    entries: entryTable.result(),
    ...confusions.result(),
    ...(repeated ? { consistency: repeated } : {}),
    ...(dialogues ? { conversations: dialogues } : {}),
  };
  return { summary: tally.summary(latency), metrics, ...(coverage ? { coverage: coverage.result() } : {}) };
}

/** report.metrics alone (see scoreResults). */
export const computeMetrics = (results: ResultSource, options?: ScoreOptions): Metrics => scoreResults(results, options).metrics;

/**
 * The report with its metrics: as it is when it has them, else computed from its results (an older report.json).
 * A report written before the cross-validated floor (schema 1.4) gets its threshold analysis computed again, with
 * the objective it was written with, so the floor it shows and its estimate come from the same rules.
 */
export function withMetrics(data: ReportData): ScoredData {
  const { metrics } = data.head;
  if (!metrics) return { head: { ...data.head, metrics: computeMetrics(data.results) }, results: data.results };
  if (metrics.thresholds.crossValidated !== undefined) return { head: { ...data.head, metrics }, results: data.results };
  const { objective, oosShare, maxAccuracyDrop } = metrics.thresholds;
  const options = { objective, ...(oosShare !== null ? { oosShare } : {}), ...(maxAccuracyDrop !== null ? { maxAccuracyDrop } : {}) };
  return { head: { ...data.head, metrics: { ...metrics, thresholds: thresholdAnalysis(data.results, options) } }, results: data.results };
}
