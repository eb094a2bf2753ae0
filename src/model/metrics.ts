import { z } from 'zod';
import { OUTCOMES, type Outcome } from './outcome.js';

/**
 * The analysis part of report.json (`metrics`), beside the backward-compatible `summary`:
 * written by src/score/metrics, read by the report writers and compare.
 */

/** A count per outcome, every outcome present. */
export const OutcomeCountsSchema = z.object(Object.fromEntries(OUTCOMES.map((o) => [o, z.number().int()])) as Record<Outcome, z.ZodNumber>);

/** A rate with its 95% Wilson score interval; all null when n = 0. */
export const IntervalSchema = z.object({
  value: z.number().nullable(),
  low: z.number().nullable(),
  high: z.number().nullable(),
  /** successes / n */
  successes: z.number().int(),
  n: z.number().int(),
});

/** Rank metrics over questions with expectations and no error (trec_eval-style, on the returned list). */
export const RankMetricsSchema = z.object({
  questions: z.number().int(),
  hit1: z.number().nullable(),
  hit3: z.number().nullable(),
  hit5: z.number().nullable(),
  mrr: z.number().nullable(),
  /** Mean of top-1 minus top-2 score, over lists with at least two answers. */
  meanMargin: z.number().nullable(),
});

export const DistributionSchema = z.object({
  count: z.number().int(),
  percentiles: z.object({ p10: z.number().nullable(), p25: z.number().nullable(), p50: z.number().nullable(), p75: z.number().nullable(), p90: z.number().nullable() }),
  /** Bins of equal width: counts[i] is the number of values in [edges[i], edges[i+1]) (the last bin closed). */
  histogram: z.object({ edges: z.array(z.number()), counts: z.array(z.number().int()) }),
});

/** One candidate floor threshold replayed over the stored ranked lists. */
export const ThresholdPointSchema = z.object({
  threshold: z.number(),
  /** Share of answerable questions whose top-1 is still correct and at or above the threshold. */
  answeredCorrectly: z.number(),
  /** Share of out-of-scope (expect=fallback) questions refused at this threshold. */
  refusedCorrectly: z.number(),
  /** Share of answerable questions still answered at all (coverage). */
  coverage: z.number(),
  /** The objective's value at this threshold. */
  objective: z.number(),
});

export const ThresholdAnalysisSchema = z.object({
  /** e.g. "f1": harmonic mean of answeredCorrectly and refusedCorrectly. */
  objective: z.string(),
  answerable: z.number().int(),
  outOfScope: z.number().int(),
  curve: z.array(ThresholdPointSchema),
  /** The threshold that maximizes the objective (lowest on ties); null without answerable or out-of-scope questions. */
  recommended: ThresholdPointSchema.nullable(),
});

/** Every headline metric for one slice of the questions (a language, a tag, a category). */
export const SliceSchema = z.object({
  key: z.string(),
  total: z.number().int(),
  outcomes: OutcomeCountsSchema,
  top1Accuracy: IntervalSchema,
  answerableAccuracy: IntervalSchema,
  rank: RankMetricsSchema,
  errorRate: z.number(),
});

export const ConfusionSchema = z.object({
  /** The expected answer (label, sequence or text, as the row gave it). */
  expected: z.string(),
  /** The top-1 answer given instead (its label, else its sequence number). */
  got: z.string(),
  count: z.number().int(),
  /** Up to 5 question ids, for the report's links. */
  examples: z.array(z.string()),
});

export const MetricsSchema = z.object({
  intervals: z.object({
    top1Accuracy: IntervalSchema,
    answerableAccuracy: IntervalSchema,
    rates: z.object({ dummy: IntervalSchema, floor: IntervalSchema, suggestion: IntervalSchema, empty: IntervalSchema, error: IntervalSchema }),
  }),
  rank: RankMetricsSchema,
  scores: z.object({ correct: DistributionSchema, notCorrect: DistributionSchema }),
  latency: z.object({ p50: z.number().nullable(), p90: z.number().nullable(), p99: z.number().nullable(), max: z.number().nullable(), histogram: DistributionSchema.shape.histogram }),
  thresholds: ThresholdAnalysisSchema,
  breakdowns: z.object({ language: z.array(SliceSchema), tag: z.array(SliceSchema), category: z.array(SliceSchema) }),
  confusions: z.array(ConfusionSchema),
});

export type Interval = z.infer<typeof IntervalSchema>;
export type RankMetrics = z.infer<typeof RankMetricsSchema>;
export type Distribution = z.infer<typeof DistributionSchema>;
export type ThresholdPoint = z.infer<typeof ThresholdPointSchema>;
export type ThresholdAnalysis = z.infer<typeof ThresholdAnalysisSchema>;
export type Slice = z.infer<typeof SliceSchema>;
export type Confusion = z.infer<typeof ConfusionSchema>;
export type Metrics = z.infer<typeof MetricsSchema>;
