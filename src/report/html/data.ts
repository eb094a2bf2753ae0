import { hasResponse, isJudged, needsAttention, OUTCOME_CLASSES, OUTCOMES } from '../../model/outcome.js';
import { describeExpected } from '../describe.js';
import { gzipBase64, interner } from './encode.js';
import { CONVERSATION_VERDICTS, type QuestionResult, type ReportAnswer } from '../../model/report.js';
import { TURN_CHECK_KEYS, TURN_CHECKS } from '../../model/turn-checks.js';
import { describeSent } from '../../model/request-fields.js';
import { top1 } from '../../score/result.js';
import type { ScoredData } from '../../model/source.js';
import { ANY_ANSWER, EntryIndex, OUT_OF_SCOPE, REFUSED } from '../../score/metrics/entries.js';
import type { PageAnswer, PageAnswerFields, PageCheck, PageDetail, PageRow, PageTurn } from '../../pages/report/data.js';

/** Flag bits of an answer in the page data, in this order: bit k = FLAG_NAMES[k]. */
export const FLAG_NAMES = ['dummy', 'floor', 'suggestion', 'dialogue', 'dialog-in-progress', 'international', 'not-agent'] as const;

const flagBits = (a: ReportAnswer): number =>
  [a.is_dummy_answer, a.is_dummy_floor_answer, a.is_suggestion_answer, a.is_dialogue_answer, a.is_dialog_in_progress, a.is_international_question, !a.is_agent_answer]
    .reduce((bits, on, k) => (on ? bits | (1 << k) : bits), 0);

export type { PageAnswer, PageAnswerFields, PageCheck, PageData, PageDetail, PageMeta, PageRow, PageTurn } from '../../pages/report/data.js';

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
