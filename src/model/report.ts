import { z } from 'zod';
import { CoverageSchema } from './coverage.js';
import { EXPECTATION_KEYS, type ExpectationKey } from './expectations.js';
import { MetricsSchema, OutcomeCountsSchema } from './metrics.js';
import { OUTCOMES } from './outcome.js';
import { OUTPUTS } from './request-fields.js';
import { TURN_CHECK_KEYS, type TurnCheckKey } from './turn-checks.js';
import { VerdictSchema } from './verdict.js';

/**
 * Bump the major on a breaking change: compare and merge refuse to mix majors. 1.5: `results[].sent`, `results[].reply`,
 * `run.options.askForMetadata` / `usingRepeatingAnswers`, the `sub_category` expectation. 1.6: `coverage` (the
 * knowledge base's coverage by the question set, when the run knows the knowledge base).
 */
export const SCHEMA_VERSION = '1.6';

/** The part of a schemaVersion that must match for two reports to mix. */
export const schemaMajor = (version: string): string => version.split('.')[0] ?? version;

/** An answer item as stored in a report: the service's values coerced to numbers, booleans and tag lists. */
export const ReportAnswerSchema = z.looseObject({
  answer: z.string(),
  theme: z.string().optional(),
  context: z.string().optional(),
  snippet: z.string().optional(),
  sequence_number: z.number(),
  answer_score: z.number(),
  tags: z.array(z.string()),
  label: z.string().optional(),
  category: z.string().optional(),
  sub_category: z.string().optional(),
  answer_language: z.string().optional(),
  is_agent_answer: z.boolean(),
  is_dummy_answer: z.boolean(),
  is_dummy_floor_answer: z.boolean(),
  is_suggestion_answer: z.boolean(),
  is_international_question: z.boolean(),
  is_dialog_in_progress: z.boolean(),
  is_dialogue_answer: z.boolean(),
  delay: z.number(),
});

export const ResultErrorSchema = z.object({
  kind: z.enum(['network', 'timeout', 'http', 'protocol']),
  message: z.string(),
  status: z.number().optional(),
});

const expectationValues = Object.fromEntries(EXPECTATION_KEYS.map((k) => [k, z.array(z.string()).optional()])) as Record<ExpectationKey, z.ZodOptional<z.ZodArray<z.ZodString>>>;

const checkValues = Object.fromEntries(TURN_CHECK_KEYS.map((k) => [k, z.string().optional()])) as Record<TurnCheckKey, z.ZodOptional<z.ZodString>>;

/**
 * What the row expected: `expect`, then every expectation field given (src/model/expectations.ts), then, on a turn
 * of a conversation, every turn check given (src/model/turn-checks.ts), its value as written.
 */
export const ExpectedSchema = z.object({ expect: z.enum(['answer', 'fallback']).nullable(), ...expectationValues, ...checkValues });

/** How a conversation ended: every turn passed, a turn failed (the first decides), or a turn ended in error. */
export const CONVERSATION_VERDICTS = ['passed', 'failed', 'error'] as const;

/** A turn's place in its conversation, and the conversation's verdict (the same on each of its turns). */
export const ConversationTurnSchema = z.object({
  /** The conversation's id (the turn's own id is `{id}#{turn}`). */
  id: z.string(),
  /** 1-based. */
  turn: z.number().int(),
  /** Turns in the conversation. */
  turns: z.number().int(),
  /** The username the conversation was asked as: its own, or a fresh one per run and conversation. */
  user: z.string(),
  verdict: z.enum(CONVERSATION_VERDICTS),
  /** The turn that decided a `failed` or `error` verdict (its first failing turn, or the turn that ended in error); null when passed. */
  at: z.number().int().nullable(),
  /** How long the run waited after this turn, as its answer's `delay` asked (capped); absent when it did not wait. */
  waitedMs: z.number().optional(),
});

/** Which turn checks passed, by check (only those the turn gives; absent without a response). */
const checkResults = Object.fromEntries(TURN_CHECK_KEYS.map((k) => [k, z.boolean().optional()])) as Record<TurnCheckKey, z.ZodOptional<z.ZodBoolean>>;
export const TurnCheckResultsSchema = z.object(checkResults);

/** The top-1 of one asking of a question: what consistency compares. All null: an empty list; `error`: no response. */
export const AskingSchema = z.object({
  sequence: z.number().nullable(),
  label: z.string().nullable(),
  score: z.number().nullable(),
  error: z.boolean(),
});

export const RepeatsSchema = z.object({
  /**
   * True when every asking that got a response had the same top-1 (by sequence number; an empty list is a top-1 of
   * its own); null when fewer than two askings got one.
   */
  consistent: z.boolean().nullable(),
  /** The second asking on, in the order they were asked. */
  others: z.array(AskingSchema),
});

/** The request fields a question was asked with where they differ from the run's (`run.options`): its row's own (src/model/request-fields.ts). */
export const SentSchema = z.object({
  forceSubscription: z.boolean().optional(),
  askForMetadata: z.boolean().optional(),
  usingRepeatingAnswers: z.boolean().optional(),
  output: z.enum(OUTPUTS).optional(),
});

/**
 * A reply asked in xml, html or text: its output, and, for a question that did not pass (failing or in error), its body
 * as it came (secrets masked, at most 4,096 characters: `cut` when longer; `withheld` when the answers read from it held
 * a secret that no search of its text found).
 */
export const ReplySchema = z.object({
  output: z.enum(['xml', 'html', 'text']),
  body: z.string().optional(),
  cut: z.literal(true).optional(),
  withheld: z.literal(true).optional(),
});

export const QuestionResultSchema = z.object({
  id: z.string(),
  line: z.number().int(),
  question: z.string(),
  language: z.string(),
  tags: z.array(z.string()),
  /**
   * The dataset's own columns of the question (notes, owner...: any column that is neither known nor a near miss of a
   * known one), as text; absent when it has none. Carried through, never judged: editing one changes no comparison.
   */
  meta: z.record(z.string(), z.string()).optional(),
  /** Set on a turn of a conversation: its place in it, and the conversation's verdict. */
  conversation: ConversationTurnSchema.optional(),
  expected: ExpectedSchema,
  outcome: z.enum(OUTCOMES),
  /** Why the question did not pass, in words (wrong, abstained, fallback_missed, check_failed; skipped: why it was not asked); absent otherwise. */
  reason: z.string().optional(),
  /** Set on a turn that gives turn checks and got a response: which passed. */
  checks: TurnCheckResultsSchema.optional(),
  /** Index in `answers` of the top-1 answer (highest score, earlier on ties); null when none. */
  top1Index: z.number().int().nullable(),
  answers: z.array(ReportAnswerSchema),
  postProcessedAnswer: z.string().optional(),
  /** True when the service did not send its list in descending score order. */
  unordered: z.boolean(),
  /** Duration of the last attempt; null when it got no response. */
  latencyMs: z.number().nullable(),
  attempts: z.number().int(),
  error: ResultErrorSchema.nullable(),
  /** 1-based rank of the first answer meeting the expectations; null when none does or nothing was expected. */
  rank: z.number().int().nullable().optional(),
  /** Top-1 score minus the runner-up's; null with fewer than two answers. */
  margin: z.number().nullable().optional(),
  /** Set on a `--repeat` run: the question's other askings. This result is the first one, and the one scored. */
  repeats: RepeatsSchema.optional(),
  /** Set when the question was asked otherwise than the run's defaults (its row's request fields): what was sent. */
  sent: SentSchema.optional(),
  /** Set when the reply was asked in xml, html or text (see ReplySchema). A text reply's scores are all 0 (it has none). */
  reply: ReplySchema.optional(),
});

const rate = z.number().nullable();

export const SummarySchema = z.object({
  total: z.number().int(),
  outcomes: OutcomeCountsSchema,
  /** (correct + fallback_ok) / (labeled questions without error) */
  top1Accuracy: rate,
  /** correct / (correct + wrong + abstained) */
  answerableAccuracy: rate,
  /** Shares of all questions. */
  rates: z.object({ dummy: z.number(), floor: z.number(), suggestion: z.number(), empty: z.number(), error: z.number() }),
  latencyMs: z.object({ p50: rate, p90: rate, p99: rate, max: rate }),
  /** Questions whose answer list was not in descending score order. */
  unorderedLists: z.number().int(),
});

/**
 * What an embedded-engine run asked: the knowledge base and the engine's options. It is the run's identity
 * (resume and merge compare it), not the engine's ephemeral URL.
 */
export const EngineIdentitySchema = z.object({
  kb: z.object({ path: z.string(), sha256: z.string() }),
  floorThreshold: z.number(),
  suggestionThreshold: z.number(),
});

/**
 * The dataset's own columns, kept per question as `results[].meta` (absent when it has none): `columns` in order of
 * first appearance, at most 20; `leftOut`, those past them (and a column named `__proto__`, which no JSON reader keeps); `cut`, values cut to 1,000 characters.
 */
export const DatasetMetadataSchema = z.object({ columns: z.array(z.string()), leftOut: z.array(z.string()).optional(), cut: z.number().int().optional() });

export const RunInfoSchema = z.object({
  startedAt: z.string(),
  finishedAt: z.string(),
  durationMs: z.number(),
  /** `partial` when the run stopped before every question was asked. */
  status: z.enum(['completed', 'partial']),
  stopReason: z.string().optional(),
  /** Without credentials or query string. */
  baseUrl: z.string(),
  /** True when the run used the embedded reference engine. */
  embeddedEngine: z.boolean(),
  /** Set when the run used the embedded engine: its knowledge base and options (baseUrl is then an ephemeral port). */
  engine: EngineIdentitySchema.optional(),
  agent: z.string(),
  /**
   * `questions` counts single questions and turns; `conversations`, set when it holds any, the conversations. `ids`
   * is `line` when the dataset has no id column: its questions are named by their line, so a row added or removed
   * renames every question after it (compare says so). `metadata`: the dataset's own columns, kept per question.
   */
  dataset: z.object({
    path: z.string(),
    sha256: z.string(),
    questions: z.number().int(),
    conversations: z.number().int().optional(),
    ids: z.literal('line').optional(),
    metadata: DatasetMetadataSchema.optional(),
  }),
  /** Set on a `--shard i/n` run: only the questions of that shard were asked. */
  shard: z.object({ index: z.number().int(), count: z.number().int(), questions: z.number().int() }).optional(),
  /** Set on a report merged from shards: the shard reports it came from. */
  mergedFrom: z.array(z.string()).optional(),
  options: z.object({
    concurrency: z.number().int(),
    timeoutMs: z.number().int(),
    retries: z.number().int(),
    language: z.string(),
    output: z.string(),
    guest: z.boolean(),
    username: z.string().optional(),
    forceSubscription: z.boolean(),
    /** `question.ask_for_metadata` sent to every question whose row does not set it; absent: not sent. */
    askForMetadata: z.boolean().optional(),
    /** `question.using_repeating_answers` sent to every question whose row does not set it; absent: not sent. */
    usingRepeatingAnswers: z.boolean().optional(),
    /** --rps, when set. */
    rps: z.number().optional(),
    maxConsecutiveErrors: z.number().int().optional(),
    /** Set on a run with conversations: the longest wait honoured after a turn whose answer asked for a `delay`. */
    maxTurnDelayMs: z.number().optional(),
    /** Present (true) only when TLS certificates were not verified. */
    insecure: z.boolean().optional(),
  }),
  /**
   * Set when the run continued a journal (--resume): how many results came from it; `dropped`, when any, how many
   * of its lines were not taken (damaged, of another run, or for no question of the run: said on stderr, and their
   * questions asked again).
   */
  resumed: z.object({ fromJournal: z.number().int(), asked: z.number().int(), rerun: z.enum(['errors']).nullable(), dropped: z.number().int().optional() }).optional(),
  /** Set on a `--repeat N` run: every question was asked `times` times; each is scored on its first answer, the others only say whether the top-1 stayed the same. */
  repeat: z.object({ times: z.number().int(), scored: z.literal('first') }).optional(),
  /** Set on a report written by `answer-eval rescore`: the answers of the run judged again, without a request. */
  rescored: z.object({
    at: z.string(),
    /** The report.json whose answers were judged again. */
    from: z.string(),
    /** sha256 of the dataset the run was judged with before, and now (the same when only aliases or the floor changed). */
    dataset: z.object({ from: z.string(), to: z.string() }),
    /** The alias file applied to expected_sequence, or null. */
    aliases: z.string().nullable(),
    /** Answers scoring below it were dropped, as if the service had refused them; null when none were. */
    floor: z.number().nullable(),
    /** Questions of the run that the new dataset no longer has, left out. */
    leftOut: z.number().int(),
  }).optional(),
});

export const ReportSchema = z.object({
  schemaVersion: z.string(),
  tool: z.object({ name: z.string(), version: z.string() }),
  run: RunInfoSchema,
  /** The gates judged on this run (`--min-accuracy`, `--fail-on`, ...) and the verdict; absent when none was set. */
  gates: VerdictSchema.optional(),
  summary: SummarySchema,
  /**
   * Analysis beyond the summary: intervals, rank metrics, distributions, thresholds, breakdowns, entries. Derived
   * from the results alone, so metrics of an older shape are read as absent and computed again when rendered.
   */
  metrics: MetricsSchema.optional().catch(undefined),
  /**
   * The knowledge base's coverage by the question set: set when the run knew the knowledge base (the embedded
   * engine's, or --kb). Not derived from the results alone: merge adds it up, rescore counts it again.
   */
  coverage: CoverageSchema.optional(),
  results: z.array(QuestionResultSchema),
});

export type ReportAnswer = z.infer<typeof ReportAnswerSchema>;
export type ResultError = z.infer<typeof ResultErrorSchema>;
export type Sent = z.infer<typeof SentSchema>;
export type KeptReplyInfo = z.infer<typeof ReplySchema>;
export type QuestionResult = z.infer<typeof QuestionResultSchema>;
export type Asking = z.infer<typeof AskingSchema>;
export type Repeats = z.infer<typeof RepeatsSchema>;
export type Summary = z.infer<typeof SummarySchema>;
export type RunInfo = z.infer<typeof RunInfoSchema>;
export type EngineIdentity = z.infer<typeof EngineIdentitySchema>;
export type Report = z.infer<typeof ReportSchema>;
export type ConversationTurn = z.infer<typeof ConversationTurnSchema>;
export type ConversationVerdict = (typeof CONVERSATION_VERDICTS)[number];
