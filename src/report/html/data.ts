import { hasResponse, isJudged, needsAttention, OUTCOME_CLASSES, OUTCOMES } from '../../model/outcome.js';
import { describeExpected } from '../describe.js';
import { gzipBase64, interner } from './encode.js';
import { CONVERSATION_VERDICTS, type QuestionResult, type ReportAnswer } from '../../model/report.js';
import { TURN_CHECK_KEYS, TURN_CHECKS } from '../../model/turn-checks.js';
import { describeSent } from '../../model/request-fields.js';
import { top1 } from '../../score/result.js';
import type { ScoredData } from '../../model/source.js';
import { ANY_ANSWER, EntryIndex, OUT_OF_SCOPE, REFUSED } from '../../score/metrics/entries.js';

/** Flag bits of an answer in the page data, in this order: bit k = FLAG_NAMES[k]. */
export const FLAG_NAMES = ['dummy', 'floor', 'suggestion', 'dialogue', 'dialog-in-progress', 'international', 'not-agent'] as const;

const flagBits = (a: ReportAnswer): number =>
  [a.is_dummy_answer, a.is_dummy_floor_answer, a.is_suggestion_answer, a.is_dialogue_answer, a.is_dialog_in_progress, a.is_international_question, !a.is_agent_answer]
    .reduce((bits, on, k) => (on ? bits | (1 << k) : bits), 0);

/**
 * A distinct answer: [text, sequence_number, label, category, flag bits, its other fields]. Knowledge answers repeat
 * across questions, so they are stored once.
 */
export type PageAnswer = [string, number, string, string, number, PageAnswerFields];

/**
 * The fields of an answer item (2.4) that the list does not show in its own columns, under their json names: the
 * optional ones the answer has (theme, context, snippet, sub_category, answer_language, tags joined by `|`) and its
 * delay (always; -1: none asked). Shown in the question's detail view beside the answer.
 */
export type PageAnswerFields = {
  theme?: string;
  context?: string;
  snippet?: string;
  sub_category?: string;
  answer_language?: string;
  tags?: string;
  delay: number;
};

/**
 * What the detail view of a question shows besides its answers, when it has any of it: `post`, the reply's
 * post-processed answer; `sent`, the request fields the question was asked with otherwise than the run's, in words
 * (`output=xml; force_subscription=1`); `reply`, a reply asked in xml, html or text: its output and, for a question
 * that did not pass, its body as it came (secrets masked; `cut` after 4,096 characters; `withheld` when its markup
 * split a secret), to be shown as text (never as markup).
 */
export interface PageDetail {
  post?: string;
  sent?: string;
  reply?: { output: string; body?: string; cut?: true; withheld?: true };
}

/**
 * One question: [id, question, language index, tag indexes, outcome index, expected (words), latency ms | null,
 * attempts, error message | null, ranked list as flat (answer, score) pairs in service order (the answer an index
 * into `answers`, or the answer itself once the table is full), position of the top-1 in that list (-1 none),
 * rank of the first matching answer | null, line, why it did not pass | null, category index, expected entry index
 * (-1: not judged, or unlabeled), got entry index (-1: not judged)]. The entry indexes point into `entries`: the
 * keys of metrics.entries, and `(out of scope)` / `(any answer)` on the expected side, `(refused)` on the got side,
 * as the entry table counts them, so a click on an entry, a flow or a matrix cell shows the questions it counts.
 * Then a turn's place in its conversation (null: a single question), the question's metadata (null: none) and its
 * detail (PageDetail), as far as there are.
 */
export type PageRow = [
  string, string, number, number[], number, string, number | null, number, string | null, (number | PageAnswer)[], number, number | null, number, string | null,
  number, number, number, (PageTurn | null)?, (PageMeta | null)?, PageDetail?,
];

/** The dataset's own columns of a question (its metadata), as [column, value] pairs; after the turn (null for a single question). */
export type PageMeta = [string, string][];

/** A turn check as the page shows it: [what it checks, the value expected as written, what the reply held (null: absent, or no reply), passed (null: no reply)]. */
export type PageCheck = [string, string, string | null, boolean | null];

/**
 * A turn of a conversation, the last element of its row (single questions have none): [conversation id, turn, turns,
 * verdict (an index into `verdicts`), the turn that decided it (null: passed), user, its turn checks, the reply's
 * post-processed answer | null]. A conversation's turns are consecutive rows, so the page rebuilds its threads in order.
 */
export type PageTurn = [string, number, number, number, number | null, string, PageCheck[], string | null];

export interface PageData {
  outcomes: readonly string[];
  /** How the page names each outcome, in `outcomes` order. */
  outcomeLabels: readonly string[];
  /** The outcomes the page shows first ("failing": failures and errors). */
  attention: readonly string[];
  /** How a conversation can end, indexed by PageTurn's verdict. */
  verdicts: readonly string[];
  flags: readonly string[];
  languages: string[];
  tags: string[];
  /** A question's category (the rule of the category breakdown), by index. */
  categories: string[];
  /** Entry keys, by index. */
  entries: string[];
  answers: PageAnswer[];
  rows: PageRow[];
}

/**
 * Distinct answers kept in the table: a knowledge base is far smaller, but a service that makes up a new answer
 * per question must not grow the table with the run.
 */
export const MAX_ANSWERS = 20_000;



/**
 * The entries the run shows, to give each page row its category and entry keys by the rules of the breakdowns
 * and the entry table: seeded with metrics.entries (so an entry never returned keeps its category), then one pass.
 */
export function pageIndex(data: ScoredData): EntryIndex {
  const index = new EntryIndex(data.head.metrics.entries);
  for (const r of data.results) index.add(r);
  return index;
}

/** A turn's place in its conversation and what the page shows of it besides the question; undefined for a single question. */
export function pageTurn(r: QuestionResult): PageTurn | undefined {
  const c = r.conversation;
  if (c === undefined) return undefined;
  const responded = hasResponse(r.outcome);
  const reply = { postProcessedAnswer: r.postProcessedAnswer, top: top1(r) };
  const checks = TURN_CHECK_KEYS.flatMap((k): PageCheck[] => {
    const value = r.expected[k];
    if (value === undefined) return [];
    return [[TURN_CHECKS[k].noun, value, responded ? (TURN_CHECKS[k].of(reply) ?? null) : null, responded ? (r.checks?.[k] ?? null) : null]];
  });
  return [c.id, c.turn, c.turns, CONVERSATION_VERDICTS.indexOf(c.verdict), c.at, c.user, checks, r.postProcessedAnswer ?? null];
}

/** An answer's fields the list does not show, the optional ones only when it has them (see PageAnswerFields). */
export function answerFields(a: ReportAnswer): PageAnswerFields {
  const fields: PageAnswerFields = { delay: a.delay };
  for (const key of ['theme', 'context', 'snippet', 'sub_category', 'answer_language'] as const) {
    const value = a[key];
    if (value !== undefined && value !== '') fields[key] = value;
  }
  if (a.tags.length > 0) fields.tags = a.tags.join('|');
  return fields;
}

/** What the detail view shows besides the answers (see PageDetail); undefined when there is nothing. */
export function pageDetail(r: QuestionResult): PageDetail | undefined {
  const sent = describeSent(r.sent);
  const detail: PageDetail = {
    ...(r.postProcessedAnswer !== undefined ? { post: r.postProcessedAnswer } : {}),
    ...(sent !== '' ? { sent } : {}),
    ...(r.reply ? { reply: r.reply } : {}),
  };
  return Object.keys(detail).length > 0 ? detail : undefined;
}

/** The row's expected and got entry keys, as the entry table counts the question (undefined: not counted). */
function entryKeys(index: EntryIndex, r: QuestionResult): [string | undefined, string | undefined] {
  if (!isJudged(r.outcome)) return [undefined, undefined];
  const expected = index.expectedKey(r) ?? (r.expected.expect === 'fallback' ? OUT_OF_SCOPE : ANY_ANSWER);
  return [expected, index.givenKey(r) ?? REFUSED];
}

export interface PageDataOptions {
  /** Gives each row its category and entry keys; without it, categoryOf over an index of the run's answers alone. */
  index?: EntryIndex;
  /** @default MAX_ANSWERS */
  maxAnswers?: number;
}

/**
 * The page data (`PageData` as JSON, rows first and the tables they index after them) gzipped and base64-encoded,
 * a piece at a time in one pass over the results: memory is the distinct languages, tags and answers
 * (answers up to `maxAnswers`), and one block of text and of compressed bytes. The page inflates it with the
 * browser's DecompressionStream.
 */
export function* encodePageData(results: Iterable<QuestionResult>, { index = new EntryIndex(), maxAnswers = MAX_ANSWERS }: PageDataOptions = {}): Generator<string> {
  const languages = interner<string>((s) => s);
  const tags = interner<string>((s) => s);
  const categories = interner<string>((s) => s);
  const entries = interner<string>((s) => s);
  const answers = interner<PageAnswer>((a) => JSON.stringify(a), maxAnswers);
  const labels = OUTCOMES.map((o) => OUTCOME_CLASSES[o].label);
  const attention = OUTCOMES.filter(needsAttention);
  yield* gzipBase64(pageText());

  // rows first, then the tables they index: complete once every row is read
  function* pageText(): Generator<string> {
    yield `{"outcomes":${JSON.stringify(OUTCOMES)},"outcomeLabels":${JSON.stringify(labels)},"attention":${JSON.stringify(attention)},"verdicts":${JSON.stringify(CONVERSATION_VERDICTS)},"flags":${JSON.stringify(FLAG_NAMES)},"rows":[`;
    let first = true;
    for (const r of results) {
      const [expectedEntry, gotEntry] = entryKeys(index, r);
      const row: PageRow = [
        r.id,
        r.question,
        languages.id(r.language)!,
        r.tags.map((t) => tags.id(t)!),
        OUTCOMES.indexOf(r.outcome),
        describeExpected(r.expected),
        r.latencyMs,
        r.attempts,
        r.error ? `${r.error.kind}: ${r.error.message}` : null,
        r.answers.flatMap((a) => {
          const answer: PageAnswer = [a.answer, a.sequence_number, a.label ?? '', a.category ?? '', flagBits(a), answerFields(a)];
          return [answers.id(answer) ?? answer, a.answer_score];
        }),
        r.top1Index ?? -1,
        r.rank ?? null,
        r.line,
        r.reason ?? null,
        categories.id(index.categoryOf(r))!,
        expectedEntry === undefined ? -1 : entries.id(expectedEntry)!,
        gotEntry === undefined ? -1 : entries.id(gotEntry)!,
      ];
      const turn = pageTurn(r);
      const meta = r.meta ? Object.entries(r.meta) : undefined;
      const detail = pageDetail(r);
      if (turn || meta || detail) row.push(turn ?? null);
      if (meta || detail) row.push(meta ?? null);
      if (detail) row.push(detail);
      yield `${first ? '' : ','}${JSON.stringify(row)}`;
      first = false;
    }
    yield `],"languages":${JSON.stringify(languages.values)},"tags":${JSON.stringify(tags.values)},"categories":${JSON.stringify(categories.values)},"entries":${JSON.stringify(entries.values)},"answers":${JSON.stringify(answers.values)}}`;
  }
}
