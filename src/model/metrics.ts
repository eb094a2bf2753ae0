import { z } from 'zod';
import { OUTCOMES, type Outcome } from './outcome.js';
import { TURN_CHECK_KEYS, type TurnCheckKey } from './turn-checks.js';

/**
 * The analysis part of report.json (`metrics`), beside the backward-compatible `summary`:
 * written by src/score/metrics, read by the report writers and compare.
 */

/** A count per outcome, every outcome present (one a report predates, e.g. `skipped`, is read as 0). */
export const OutcomeCountsSchema = z.object(Object.fromEntries(OUTCOMES.map((o) => [o, z.number().int().default(0)])) as Record<Outcome, z.ZodDefault<z.ZodNumber>>);

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
  /** MRR with its 95% interval (normal approximation of the mean reciprocal rank, clipped to 0..1). */
  mrrInterval: z.object({ value: z.number().nullable(), low: z.number().nullable(), high: z.number().nullable() }),
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

/** What the recommended floor threshold optimizes (see src/score/metrics/thresholds.ts). */
export const THRESHOLD_OBJECTIVES = ['f1', 'live-accuracy', 'keep-accuracy'] as const;

export const ThresholdAnalysisSchema = z.object({
  /**
   * `f1`: harmonic mean of answeredCorrectly and refusedCorrectly; `live-accuracy`: accuracy on live traffic with
   * `oosShare` out of scope, (1 - oosShare) answeredCorrectly + oosShare refusedCorrectly; `keep-accuracy`: the
   * highest threshold whose answeredCorrectly stays within `maxAccuracyDrop` of its best.
   */
  objective: z.enum(THRESHOLD_OBJECTIVES),
  /** The objective in words, as reports state it. */
  objectiveText: z.string(),
  /** The out-of-scope share expected in live traffic (live-accuracy). */
  oosShare: z.number().nullable(),
  /** How much in-scope accuracy may drop, as a share (keep-accuracy). */
  maxAccuracyDrop: z.number().nullable(),
  answerable: z.number().int(),
  outOfScope: z.number().int(),
  /**
   * The lowest threshold the run can replay: the lowest score the service answered with (answers below its own
   * floor were never returned, so no lower floor can be judged); null when nothing was answered.
   */
  replayableFrom: z.number().nullable(),
  /**
   * From replayableFrom up, every distinct top-1 score, then the highest + 1 (refuses everything). Above 10,000
   * distinct scores (CURVE_POINTS), every k-th of them with the lowest, the highest + 1 and the recommended point.
   */
  curve: z.array(ThresholdPointSchema),
  /** The threshold that maximizes the objective (the highest on ties); null without answerable or out-of-scope questions. */
  recommended: ThresholdPointSchema.nullable(),
  /**
   * The recommended point's figures are measured on the questions it was chosen on, so they are optimistic; this is
   * their k-fold cross-validated estimate. Null when there is no recommendation, or too few questions to give every
   * fold one: fewer than k (5) answerable questions, or (f1, live-accuracy) out-of-scope ones. Absent from a report
   * written before schema 1.4: answer-eval computes its threshold analysis again from its results (withMetrics).
   */
  crossValidated: z
    .object({
      /**
       * k. The questions the analysis counts are dealt to the folds in results order, answerable and out-of-scope
       * apart: the i-th (0-based) of each kind goes to fold i mod k.
       */
      folds: z.number().int(),
      /** Fold by fold, the floor recommended from the other k − 1 folds' questions alone (the same rule, objective and candidates). */
      thresholds: z.array(z.number()),
      /** Pooled over the held-out folds, each at its own fold's floor: answerable questions answered correctly / answerable. */
      answeredCorrectly: z.number(),
      /** Out-of-scope questions refused / out-of-scope, likewise. */
      refusedCorrectly: z.number(),
      /** Answerable questions answered at all / answerable, likewise. */
      coverage: z.number(),
      /** The objective of the pooled figures. */
      objective: z.number(),
    })
    .nullable()
    .optional(),
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

/** Questions flowing between two knowledge-base entries. */
export const EntryFlowSchema = z.object({
  /** The other entry (label, else `#sequence`), or `(out of scope)` / `(refused)`. */
  key: z.string(),
  count: z.number().int(),
  /** Up to 3 question ids. */
  examples: z.array(z.string()),
});

/** One knowledge-base entry, as the run saw it: how well the questions that expect it are answered, and by whom. */
export const EntrySchema = z.object({
  /** Its label, else `#` and its sequence number. */
  key: z.string(),
  sequence: z.number().nullable(),
  label: z.string().nullable(),
  category: z.string().nullable(),
  /** Its answer text, from any answer of the run (or the knowledge base given with --kb); null when never seen. */
  text: z.string().nullable(),
  /** Labeled questions without error that expect it. */
  expected: z.number().int(),
  /** Of those, answered correctly. */
  correct: z.number().int(),
  /** Of those, refused (floor, small talk or no answer). */
  refused: z.number().int(),
  /** Labeled questions without error whose top-1 is it. */
  answered: z.number().int(),
  /** Of those, correct. */
  answeredCorrectly: z.number().int(),
  /** correct / expected; null when nothing expects it. */
  recall: z.number().nullable(),
  /** answeredCorrectly / answered; null when it never answered. */
  precision: z.number().nullable(),
  f1: z.number().nullable(),
  /** Where its questions went instead (most first, 10 at most). */
  losesTo: z.array(EntryFlowSchema),
  /** Whose questions it answered instead (most first, 10 at most; `(out of scope)` for out-of-scope questions). */
  takesFrom: z.array(EntryFlowSchema),
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

/** How often a question got the same top-1 when asked again (`run --repeat`). */
export const ConsistencySchema = z.object({
  /** The most askings of a question. */
  repeat: z.number().int(),
  /** Questions with one top-1 across their askings / questions with at least two askings that got a response. */
  interval: IntervalSchema,
  /** The first 50 questions whose top-1 changed, with the top-1 sequence number of each asking (null: none or error). */
  inconsistent: z.array(z.object({ id: z.string(), top1: z.array(z.number().nullable()) })),
});

/** How the turns at one position (1-based) of the conversations did. */
export const TurnPositionSchema = z.object({
  turn: z.number().int(),
  /** Turns at this position that were asked (not skipped). */
  asked: z.number().int(),
  /** Correct turns / judged turns at this position (errors and unlabeled turns apart). */
  accuracy: IntervalSchema,
  /** Conversations that failed here: their first failing turn. */
  failedHere: z.number().int(),
  /** Conversations that ended in error here. */
  errorsHere: z.number().int(),
});

/** Set when the run holds conversations (src/score/metrics/conversations.ts). */
export const ConversationMetricsSchema = z.object({
  count: z.number().int(),
  verdicts: z.object({ passed: z.number().int(), failed: z.number().int(), error: z.number().int() }),
  /** passed / (passed + failed): conversations that ended in error are counted apart, as errors are for questions. */
  passRate: IntervalSchema,
  /** Outcomes of the turns alone (the summary counts turns and single questions together). */
  turnOutcomes: OutcomeCountsSchema,
  /** Correct turns / judged turns, at every position. */
  turnAccuracy: IntervalSchema,
  byTurn: z.array(TurnPositionSchema),
  /** The turn at which most conversations failed (the earlier on ties); null when none failed. */
  breaksMost: z.object({ turn: z.number().int(), conversations: z.number().int() }).nullable(),
  /** Each turn check on its own: passed / turns that give it and got a response. */
  checks: z.object(Object.fromEntries(TURN_CHECK_KEYS.map((k) => [k, IntervalSchema])) as Record<TurnCheckKey, typeof IntervalSchema>),
});

export const MetricsSchema = z.object({
  intervals: z.object({
    top1Accuracy: IntervalSchema,
    answerableAccuracy: IntervalSchema,
    /** fallback_ok / out-of-scope questions without error: how many the service rightly refused. */
    outOfScopeRecall: IntervalSchema,
    rates: z.object({ dummy: IntervalSchema, floor: IntervalSchema, suggestion: IntervalSchema, empty: IntervalSchema, error: IntervalSchema }),
  }),
  rank: RankMetricsSchema,
  scores: z.object({ correct: DistributionSchema, notCorrect: DistributionSchema }),
  latency: z.object({ p50: z.number().nullable(), p90: z.number().nullable(), p99: z.number().nullable(), max: z.number().nullable(), histogram: DistributionSchema.shape.histogram }),
  thresholds: ThresholdAnalysisSchema,
  breakdowns: z.object({ language: z.array(SliceSchema), tag: z.array(SliceSchema), category: z.array(SliceSchema) }),
  /** Every knowledge-base entry a question expected or got, by key. */
  entries: z.array(EntrySchema),
  /** In-scope confusions: (expected entry, top-1 given instead) pairs of wrong answers. */
  confusions: z.array(ConfusionSchema),
  /** Out-of-scope questions answered anyway, by the entry that answered them (`expected` is `(fallback)`). */
  outOfScopeMisses: z.array(ConfusionSchema),
  /** Set when questions were asked more than once (`run --repeat`). */
  consistency: ConsistencySchema.optional(),
  /** Set when the run holds conversations. */
  conversations: ConversationMetricsSchema.optional(),
});

export type Interval = z.infer<typeof IntervalSchema>;
export type RankMetrics = z.infer<typeof RankMetricsSchema>;
export type Distribution = z.infer<typeof DistributionSchema>;
export type ThresholdPoint = z.infer<typeof ThresholdPointSchema>;
export type ThresholdAnalysis = z.infer<typeof ThresholdAnalysisSchema>;
export type CrossValidation = NonNullable<ThresholdAnalysis['crossValidated']>;
export type Slice = z.infer<typeof SliceSchema>;
export type Confusion = z.infer<typeof ConfusionSchema>;
export type Entry = z.infer<typeof EntrySchema>;
export type EntryFlow = z.infer<typeof EntryFlowSchema>;
export type ThresholdObjective = (typeof THRESHOLD_OBJECTIVES)[number];
export type Metrics = z.infer<typeof MetricsSchema>;
export type Consistency = z.infer<typeof ConsistencySchema>;
export type ConversationMetrics = z.infer<typeof ConversationMetricsSchema>;
export type TurnPosition = z.infer<typeof TurnPositionSchema>;
