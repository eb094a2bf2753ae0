import { z } from 'zod';
import { CoverageRefSchema } from '../model/coverage.js';
import { OUTCOMES } from '../model/outcome.js';
import { CONVERSATION_VERDICTS } from '../model/report.js';
import { VerdictSchema } from '../model/verdict.js';

/**
 * Bump the major on a breaking change to compare.json. 2.0: `changed` is a question whose text, language or
 * expectation was edited (the top-1 class is now `top1Changed`); `common` counts the questions compared.
 * 3.0: each list of `questions` holds at most `options.listLimit` questions (changes.jsonl has every one); every
 * listed question carries its category; `drift` groups the score drift by entry and by category.
 * 3.1: `conversations` (when either run holds conversations): conversations paired by id and turn, broken and fixed
 * ones with the turn that changed; changes.jsonl lists them too (`conversation…` classes).
 * 3.2: `quarantine` (with --quarantine FILE): a question that broke but is in the quarantine is of class
 * `quarantined` ("broke, but quarantined"), apart from `broken`; the same for conversations (`quarantined`,
 * `conversationQuarantined`).
 * 3.3: `base.shard` / `head.shard` (a side that is one shard of its dataset); `unmeasured` (HEAD did not measure some
 * of the questions BASE measured: a shard, a partial run, or fewer results of the same dataset), which no regression
 * gate can pass.
 * 3.4: `kbCoverage` (when either report has knowledge-base coverage): each side's figure, the entries that lost their
 * last test, those newly tested, and new entries no question tests.
 */
export const COMPARE_SCHEMA_VERSION = '3.4';

/** The file beside compare.json that lists every change, one JSON object a line (ChangeLineSchema). */
export const CHANGES_FILE = 'changes.jsonl';

/** Which report a side of the comparison came from. */
export const ReportRefSchema = z.object({
  file: z.string(),
  schemaVersion: z.string(),
  toolVersion: z.string(),
  startedAt: z.string(),
  status: z.enum(['completed', 'partial']),
  agent: z.string(),
  baseUrl: z.string(),
  dataset: z.object({ path: z.string(), sha256: z.string(), questions: z.number().int(), ids: z.literal('line').optional() }),
  /** Set when the run asked only one shard of its dataset (`--shard i/n`): report.json's `run.shard`. */
  shard: z.object({ index: z.number().int(), count: z.number().int(), questions: z.number().int() }).optional(),
});

/** Why HEAD did not measure questions BASE measured: see UnmeasuredSchema. */
export const UNMEASURED_WHY = ['shard', 'partial', 'missing'] as const;

/**
 * Questions BASE measured that HEAD did not measure, although they are in its dataset: counted in `removed`, but not
 * removed from the dataset, so no regression gate can judge the comparison. `why`: HEAD is one shard of its dataset
 * (`shard`), a run that stopped early (`partial`), or holds fewer questions of the very dataset BASE ran (same
 * sha256: `missing`).
 */
export const UnmeasuredSchema = z.object({ questions: z.number().int(), why: z.enum(UNMEASURED_WHY) });

/** The quarantine a comparison read: the questions (and conversations) whose break is not counted as a regression. */
export const QuarantineRefSchema = z.object({
  /** The file, as given to --quarantine. */
  file: z.string(),
  /** Ids listed in it. */
  ids: z.number().int(),
  /** Listed ids that are in neither run (no question, turn or conversation of that id): the first 100, and how many. */
  unknown: z.array(z.string()),
  unknownCount: z.number().int(),
});

/** One side of a question: its outcome and top-1 answer. */
export const QuestionSideSchema = z.object({
  outcome: z.enum(OUTCOMES),
  top1: z
    .object({ answer: z.string(), sequence_number: z.number(), label: z.string().nullable(), category: z.string().nullable(), score: z.number() })
    .nullable(),
  /** 1-based rank of the first matching answer; null when none; absent when the report did not record it. */
  rank: z.number().int().nullable().optional(),
  error: z.string().nullable(),
});

export const QuestionChangeSchema = z.object({
  id: z.string(),
  question: z.string(),
  tags: z.array(z.string()),
  /** The question's category, by the rule of report.json's category breakdown (docs/metrics.md; docs/compare.md, "Statistics"). */
  category: z.string(),
  base: QuestionSideSchema,
  head: QuestionSideSchema,
  /** head top-1 score - base top-1 score; null when either side has no top-1. */
  scoreDelta: z.number().nullable(),
});

/** What was edited in a question kept under the same id. */
export const QUESTION_EDITS = ['question', 'language', 'expectation'] as const;
export type QuestionEdit = (typeof QUESTION_EDITS)[number];

/**
 * A question whose text, language or expectation changed between the reports (same id): a different question,
 * so it is listed apart and left out of the classes, the paired statistics and the regression gates.
 */
export const EditedQuestionSchema = QuestionChangeSchema.extend({
  edits: z.array(z.enum(QUESTION_EDITS)),
  /** The question text in BASE (`question` is HEAD's). */
  baseQuestion: z.string(),
  /** The expectation of each side, in words. */
  expected: z.object({ base: z.string(), head: z.string() }),
});

/** A question present on one side only. */
export const CoverageChangeSchema = z.object({ id: z.string(), question: z.string(), tags: z.array(z.string()), category: z.string(), outcome: z.enum(OUTCOMES) });

export const ErrorChangeSchema = QuestionChangeSchema.extend({ side: z.enum(['base', 'head', 'both']) });

export const MetricDeltaSchema = z.object({ base: z.number().nullable(), head: z.number().nullable(), delta: z.number().nullable() });

/** A paired delta (head - base) with its bootstrap interval; all null without paired questions. */
export const PairedDeltaSchema = z.object({
  n: z.number().int(),
  base: z.number().nullable(),
  head: z.number().nullable(),
  delta: z.number().nullable(),
  low: z.number().nullable(),
  high: z.number().nullable(),
});

/** The exact McNemar test on top-1 correctness over the paired questions. */
export const McNemarSchema = z.object({
  /** base correct, head not (broken) */
  b: z.number().int(),
  /** base not correct, head correct (fixed) */
  c: z.number().int(),
  p: z.number(),
});

export const PairedStatsSchema = z.object({
  /** Questions present, labeled and error-free in both reports. */
  n: z.number().int(),
  mcnemar: McNemarSchema,
  top1Accuracy: PairedDeltaSchema,
  /**
   * Mean reciprocal rank over the paired questions both reports' metrics.rank count (expected_* given, answered in
   * both runs): `n` of them; `base` and `head` are each report's metrics.rank.mrr over those questions (the same
   * number when they are all its ranked questions); `delta` = head − base. Null when a report lacks per-question
   * `rank` (older reports): see `mrrNote`.
   */
  mrr: PairedDeltaSchema.nullable(),
  mrrNote: z.string().nullable(),
});

export const SliceComparisonSchema = z.object({
  key: z.string(),
  n: z.number().int(),
  mcnemar: McNemarSchema,
  /** Holm-adjusted p across the slices of the same breakdown. */
  pHolm: z.number(),
  top1Accuracy: PairedDeltaSchema,
  /** Null when a report lacks per-question rank. */
  mrr: PairedDeltaSchema.nullable(),
});

/** The score drift of one group of questions (one entry, or one category): how many moved, which way, and how far. */
export const DriftGroupSchema = z.object({
  key: z.string(),
  /** The entry's answer text (groups by entry); null for categories. */
  text: z.string().nullable(),
  count: z.number().int(),
  /** Questions whose top-1 score went up / down. */
  up: z.number().int(),
  down: z.number().int(),
  /** The score deltas (head - base): mean and percentiles (linear interpolation). */
  mean: z.number(),
  min: z.number(),
  p10: z.number(),
  p50: z.number(),
  p90: z.number(),
  max: z.number(),
});

export const DriftSchema = z.object({
  /** By the top-1 entry (the same on both sides): its label, else `#` and its sequence number; most questions first. */
  byEntry: z.array(DriftGroupSchema),
  /** By the question's category; most questions first. */
  byCategory: z.array(DriftGroupSchema),
  /** Every drift delta: counts[i] in [edges[i], edges[i+1]), the last bin closed. */
  histogram: z.object({ edges: z.array(z.number()), counts: z.array(z.number().int()) }),
});

/** How one run's conversation ended: its verdict, the turn that decided it (null when passed) and its number of turns. */
export const ConversationSideSchema = z.object({
  verdict: z.enum(CONVERSATION_VERDICTS),
  at: z.number().int().nullable(),
  turns: z.number().int(),
});

/** The first turn of a conversation whose outcome differs between the runs. */
export const TurnChangeSchema = z.object({
  turn: z.number().int(),
  /** The turn's question (HEAD's). */
  question: z.string(),
  base: z.enum(OUTCOMES),
  head: z.enum(OUTCOMES),
  /** Why HEAD's turn did not pass, in words (its reason, or its error); null when it passed. */
  reason: z.string().nullable(),
});

/** A conversation common to both runs whose verdict changed: broken (passed, now failed or error) or fixed (the reverse). */
export const ConversationChangeSchema = z.object({
  id: z.string(),
  /** Its first turn's question (HEAD's): what the dialogue is about. */
  question: z.string(),
  tags: z.array(z.string()),
  base: ConversationSideSchema,
  head: ConversationSideSchema,
  /** The first turn whose outcome differs. */
  turn: TurnChangeSchema,
});

/** A conversation in one run only. */
export const ConversationCoverageSchema = z.object({
  id: z.string(),
  question: z.string(),
  tags: z.array(z.string()),
  verdict: z.enum(CONVERSATION_VERDICTS),
  at: z.number().int().nullable(),
  turns: z.number().int(),
});

/**
 * A conversation kept under its id whose turns were edited (a turn's question, language or expectation), added or
 * removed: another dialogue, so it is listed apart and not compared.
 */
export const EditedConversationSchema = z.object({
  id: z.string(),
  question: z.string(),
  tags: z.array(z.string()),
  base: ConversationSideSchema,
  head: ConversationSideSchema,
  /** The turns present on both sides whose question, language or expectation was edited. */
  editedTurns: z.array(z.number().int()),
});

/**
 * Conversations paired by id, their turns by number (a turn's id is `{conversation}#{turn}`), as questions are: common
 * (every turn the same question and expectation on both sides), added, removed, changed. Broken and fixed are
 * decided on the conversation's verdict; each list holds the first `options.listLimit` (changes.jsonl has every one).
 */
export const ConversationComparisonSchema = z.object({
  counts: z.object({
    /** In both runs, with the same turns: compared. */
    common: z.number().int(),
    added: z.number().int(),
    removed: z.number().int(),
    /** The same id, with a turn edited, added or removed: not compared. */
    changed: z.number().int(),
    /** Passed in BASE, failed or ended in error in HEAD, and not in the quarantine. */
    broken: z.number().int(),
    /** Broken conversations whose HEAD verdict is `error`: listed, but not regressions (errors never are). */
    brokenByError: z.number().int(),
    /** Failed or ended in error in BASE, passed in HEAD. */
    fixed: z.number().int(),
    /** Passed in BASE, not in HEAD, but in the quarantine (by its id or the id of the turn that changed): not counted as broken. */
    quarantined: z.number().int(),
  }),
  /** Pass rate of the common conversations on each side: passed / (passed + failed), those in error apart. */
  passRate: MetricDeltaSchema,
  broken: z.array(ConversationChangeSchema),
  /** Broke, but quarantined. */
  quarantined: z.array(ConversationChangeSchema),
  fixed: z.array(ConversationChangeSchema),
  added: z.array(ConversationCoverageSchema),
  removed: z.array(ConversationCoverageSchema),
  changed: z.array(EditedConversationSchema),
});

/** One side's knowledge-base coverage (report.json `coverage`), in figures. */
export const CoverageSideSchema = z.object({ knowledgeBase: z.string(), entries: z.number().int(), tested: z.number().int(), share: z.number().nullable() });

/**
 * How the knowledge base's coverage by the questions changed. Entries are matched by sequence number; the lists are
 * empty unless both reports have coverage, and complete (they are as long as a knowledge base, not a question set).
 */
export const KbCoverageComparisonSchema = z.object({
  /** Null: that report has no coverage (it was made without a knowledge base). */
  base: CoverageSideSchema.nullable(),
  head: CoverageSideSchema.nullable(),
  share: MetricDeltaSchema,
  /** Entries of both knowledge bases tested in BASE and untested in HEAD: the questions that tested them are gone or expect another entry. */
  lostLastTest: z.array(CoverageRefSchema),
  /** Entries tested in HEAD that BASE left untested, or that only HEAD's knowledge base has. */
  newlyTested: z.array(CoverageRefSchema),
  /** Entries only HEAD's knowledge base has that no question tests: added without a test. */
  addedUntested: z.array(CoverageRefSchema),
});

export const ComparisonSchema = z.object({
  schemaVersion: z.string(),
  tool: z.object({ name: z.string(), version: z.string() }),
  base: ReportRefSchema,
  head: ReportRefSchema,
  /** Differences that would have refused the comparison, overridden by --force. */
  forced: z.array(z.string()),
  /** The gates judged with this comparison and the verdict; absent when none was set. */
  gates: VerdictSchema.optional(),
  /** The quarantine read (--quarantine FILE); absent without one. */
  quarantine: QuarantineRefSchema.optional(),
  options: z.object({
    scoreEpsilon: z.number(),
    resamples: z.number().int(),
    seed: z.number().int(),
    confidence: z.number(),
    /** The most questions each list of `questions` holds; `counts` has them all, and changes.jsonl lists every one. */
    listLimit: z.number().int(),
  }),
  counts: z.object({
    /** Same id, same question and expectation in both reports: the questions compared. */
    common: z.number().int(),
    /** Only in HEAD. */
    added: z.number().int(),
    /** Only in BASE. */
    removed: z.number().int(),
    /** Same id, but the question text, language or expectation was edited. */
    changed: z.number().int(),
    /** Common questions labeled and error-free on both sides: the paired statistics' n. */
    paired: z.number().int(),
    /** Was correct, now is not, and not in the quarantine: the regressions. */
    broken: z.number().int(),
    /** Was correct, now is not, but in the quarantine: not counted as broken (McNemar's b counts both). */
    quarantined: z.number().int(),
    fixed: z.number().int(),
    top1Changed: z.number().int(),
    drift: z.number().int(),
    errors: z.number().int(),
  }),
  /** Set when HEAD did not measure some of the questions BASE measured (a shard, a partial run...): no regression gate can pass. */
  unmeasured: UnmeasuredSchema.optional(),
  /** Metric deltas: from the two summaries when both reports hold the same questions, else over the common questions only. */
  metrics: z.object({
    top1Accuracy: MetricDeltaSchema,
    answerableAccuracy: MetricDeltaSchema,
    /** fallback_missed / (questions expecting a fallback without error) */
    fallbackMissedRate: MetricDeltaSchema,
    dummyRate: MetricDeltaSchema,
    floorRate: MetricDeltaSchema,
    errorRate: MetricDeltaSchema,
    latencyP50: MetricDeltaSchema,
    latencyP90: MetricDeltaSchema,
  }),
  paired: PairedStatsSchema,
  slices: z.object({ tag: z.array(SliceComparisonSchema), category: z.array(SliceComparisonSchema) }),
  /** The score drift, grouped: every drifting question counts, listed or not. */
  drift: DriftSchema,
  /**
   * The first `options.listLimit` questions of each class, in BASE's order (HEAD's for `added`): a list is complete
   * when its length equals its count. changes.jsonl, beside compare.json, lists every one.
   */
  questions: z.object({
    /** Was correct (correct or fallback_ok), now is not. */
    broken: z.array(QuestionChangeSchema),
    /** Was correct, now is not, but in the quarantine: broke, but quarantined. */
    quarantined: z.array(QuestionChangeSchema),
    /** Was not correct, now is. */
    fixed: z.array(QuestionChangeSchema),
    /** A different top-1 answer, correct on both sides or on neither. */
    top1Changed: z.array(QuestionChangeSchema),
    /** Same top-1 answer on both sides, its score moved by more than scoreEpsilon. */
    drift: z.array(QuestionChangeSchema),
    added: z.array(CoverageChangeSchema),
    removed: z.array(CoverageChangeSchema),
    /** Same id, edited question or expectation: not compared. */
    changed: z.array(EditedQuestionSchema),
    /** An error on either side: never a regression. */
    errors: z.array(ErrorChangeSchema),
  }),
  /** Set when either run holds conversations. */
  conversations: ConversationComparisonSchema.optional(),
  /** Set when either report has knowledge-base coverage. */
  kbCoverage: KbCoverageComparisonSchema.optional(),
});

/**
 * One line of changes.jsonl: a listed question with its class. A question is on one line per class it is in (a
 * broken question whose top-1 answer stayed the same but moved its score is also drift). A conversation listed in
 * `conversations` is on a line of its own, its class `conversation` + the list's name (`conversationBroken`).
 */
export const ChangeLineSchema = z.discriminatedUnion('class', [
  QuestionChangeSchema.extend({ class: z.enum(['broken', 'quarantined', 'fixed', 'top1Changed', 'drift']) }),
  ErrorChangeSchema.extend({ class: z.literal('errors') }),
  CoverageChangeSchema.extend({ class: z.enum(['added', 'removed']) }),
  EditedQuestionSchema.extend({ class: z.literal('changed') }),
  ConversationChangeSchema.extend({ class: z.enum(['conversationBroken', 'conversationQuarantined', 'conversationFixed']) }),
  ConversationCoverageSchema.extend({ class: z.enum(['conversationAdded', 'conversationRemoved']) }),
  EditedConversationSchema.extend({ class: z.literal('conversationChanged') }),
]);

export type ReportRef = z.infer<typeof ReportRefSchema>;
export type QuarantineRef = z.infer<typeof QuarantineRefSchema>;
export type Unmeasured = z.infer<typeof UnmeasuredSchema>;
export type QuestionSide = z.infer<typeof QuestionSideSchema>;
export type QuestionChange = z.infer<typeof QuestionChangeSchema>;
export type CoverageChange = z.infer<typeof CoverageChangeSchema>;
export type EditedQuestion = z.infer<typeof EditedQuestionSchema>;
export type MetricDelta = z.infer<typeof MetricDeltaSchema>;
export type PairedDelta = z.infer<typeof PairedDeltaSchema>;
export type SliceComparison = z.infer<typeof SliceComparisonSchema>;
export type Comparison = z.infer<typeof ComparisonSchema>;
export type ErrorChange = z.infer<typeof ErrorChangeSchema>;
export type DriftGroup = z.infer<typeof DriftGroupSchema>;
export type Drift = z.infer<typeof DriftSchema>;
export type ChangeLine = z.infer<typeof ChangeLineSchema>;
/** The classes a listed question can be in: the keys of `questions`. */
export type ChangeClass = keyof Comparison['questions'];
export type ConversationSide = z.infer<typeof ConversationSideSchema>;
export type TurnChange = z.infer<typeof TurnChangeSchema>;
export type ConversationChange = z.infer<typeof ConversationChangeSchema>;
export type ConversationCoverage = z.infer<typeof ConversationCoverageSchema>;
export type EditedConversation = z.infer<typeof EditedConversationSchema>;
export type ConversationComparison = z.infer<typeof ConversationComparisonSchema>;
export type KbCoverageComparison = z.infer<typeof KbCoverageComparisonSchema>;
/** The lists of conversations: the keys of `conversations` other than counts and passRate. */
export type ConversationListName = Exclude<keyof ConversationComparison, 'counts' | 'passRate'>;
/** A line of changes.jsonl that lists a conversation. */
export type ConversationLine = Extract<ChangeLine, { class: `conversation${string}` }>;
/** A line of changes.jsonl that lists a question. */
export type QuestionLine = Exclude<ChangeLine, ConversationLine>;
