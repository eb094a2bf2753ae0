import { z } from 'zod';
import { GateResultSchema } from '../model/verdict.js';
import { IntervalSchema } from '../model/metrics.js';
import { OUTCOMES } from '../model/outcome.js';

/** Bump the major on a breaking change of trend.json. */
export const TREND_SCHEMA_VERSION = '1.1';

/** What changed between a run and the one before it. */
export const RunChangeSchema = z.object({
  /** `dataset`: its sha256 (the questions asked); `service`: what answered them (see src/trend/identity.ts). */
  kind: z.enum(['dataset', 'service']),
  /** In words, both values: `dataset sha256 1a2b3c4d… → 5e6f7a8b…`, `baseUrl "https://a" → "https://b"`. */
  what: z.string(),
});

/** One run of the history, in start-time order. */
export const TrendRunSchema = z.object({
  /** The report.json read. */
  path: z.string(),
  startedAt: z.string(),
  status: z.enum(['completed', 'partial']),
  /** True for a report written by `answer-eval rescore`: a what-if, in `runs` only with --include-what-ifs. */
  rescored: z.boolean(),
  /** Set on a what-if (`rescored`): the run it judged again and what it changed. It counts for no failing, flaky or new question, nor any gate. */
  whatIf: z.object({ from: z.string(), what: z.string() }).optional(),
  dataset: z.object({ path: z.string(), sha256: z.string() }),
  /** A short hash of what answered (service identity); equal hashes, same service. */
  service: z.string(),
  /** What differs from the real run before (what-ifs are skipped); empty for the first run and when nothing did. */
  changes: z.array(RunChangeSchema),
  /** Questions in the report. */
  total: z.number().int(),
  figures: z.object({
    top1Accuracy: IntervalSchema,
    answerableAccuracy: IntervalSchema,
    outOfScopeRecall: IntervalSchema,
    errorRate: IntervalSchema,
    latencyP50: z.number().nullable(),
    latencyP90: z.number().nullable(),
  }),
});

/** A question failing (wrong, abstained or fallback missed) in the latest run. */
export const FailingQuestionSchema = z.object({
  id: z.string(),
  question: z.string(),
  outcome: z.enum(OUTCOMES),
  /** Why, as the report said it. */
  reason: z.string().optional(),
  /** Index in `runs` of the first run of the current failing streak (runs where it ended in error or was absent, and what-ifs, do not break it). */
  failingSince: z.number().int(),
  /** Whether it was ever judged correct in any run read. */
  everPassed: z.boolean(),
  /** It passed the last time it was judged before the latest run (usually the run before): a new failure. */
  newFailure: z.boolean(),
});

/** A question whose top-1 correctness flipped at least `options.flakyFlips` times with nothing changed. */
export const FlakyQuestionSchema = z.object({
  id: z.string(),
  question: z.string(),
  /** Flips between consecutive runs judging it where neither the question nor the service changed. */
  flips: z.number().int(),
  /** Its correctness in the latest run; null when it was not judged there (error). */
  correctNow: z.boolean().nullable(),
});

/** trend.json: the history of a set of runs, question by question. */
export const TrendSchema = z.object({
  schemaVersion: z.string(),
  tool: z.object({ name: z.string(), version: z.string() }),
  options: z.object({ flakyFlips: z.number().int() }),
  runs: z.array(TrendRunSchema),
  /** Distinct question ids seen in any run. */
  questions: z.number().int(),
  /** Every question failing in the latest run, the most recent streaks first. */
  failing: z.array(FailingQuestionSchema),
  /** Flaky questions among those of the latest run, most flips first. */
  flaky: z.array(FlakyQuestionSchema),
  /** The gates set (--max-new-failures, --max-flaky) and how each went. */
  gates: z.array(GateResultSchema),
  /** `failed` when a gate failed; `no-gates` when none was set. */
  verdict: z.enum(['passed', 'failed', 'no-gates']),
  /** Runs given but left out: a report.json that cannot be read, or a run that died before writing it; absent when none. */
  leftOut: z.array(z.object({ path: z.string(), why: z.string() })).optional(),
  /**
   * Reports written by `answer-eval rescore` among those given (what-ifs: a run's answers judged again), each with the
   * run it came from and what it changed; absent when none. `included`: they are in `runs` (--include-what-ifs),
   * marked `rescored`; otherwise they are left out. Either way, failing, flaky, new and the gates count real runs only.
   */
  whatIfs: z.object({ included: z.boolean(), runs: z.array(z.object({ path: z.string(), from: z.string(), what: z.string() })) }).optional(),
});

export type RunChange = z.infer<typeof RunChangeSchema>;
export type TrendRun = z.infer<typeof TrendRunSchema>;
export type FailingQuestion = z.infer<typeof FailingQuestionSchema>;
export type FlakyQuestion = z.infer<typeof FlakyQuestionSchema>;
export type Trend = z.infer<typeof TrendSchema>;
