import { stringify } from 'csv-stringify/sync';
import { hasScores, top1 } from '../score/result.js';
import { answerFlags, describeExpected } from './describe.js';
import type { QuestionResult } from '../model/report.js';
import { describeSent } from '../model/request-fields.js';
import type { ScoredData } from '../model/source.js';
import { safeCell } from '../model/csv-cell.js';

export { safeCell };

/**
 * The fixed columns, in this order (new ones are added at the end, before the metadata, so a column keeps its place):
 * after the error, the reply's post-processed answer, the top-1's delay and its optional fields (2.4), and what the
 * question was asked with otherwise than the run (`sent`: `output=xml; force_subscription=1`).
 */
const COLUMNS = [
  'id', 'question', 'language', 'tags', 'expect', 'expected', 'outcome', 'reason',
  'top1_sequence', 'top1_label', 'top1_score', 'top1_answer', 'top1_flags', 'latency_ms', 'attempts', 'error',
  'post_processed_answer', 'delay', 'top1_category', 'top1_sub_category', 'top1_theme', 'top1_context', 'top1_snippet', 'top1_tags',
  'top1_answer_language', 'sent',
] as const;

/** After `id`, in a run with conversations: the turn's conversation, its number, the user it was asked as, the conversation's verdict. */
const CONVERSATION_COLUMNS = ['conversation', 'turn', 'user', 'conversation_verdict'] as const;

/**
 * LF between rows; a cell with a line break is quoted, a lone CR too (csv-stringify quotes only LF and the
 * delimiter itself then, and a spreadsheet reading universal newlines would start a row, and a formula, after it).
 */
const OPTIONS = { record_delimiter: 'unix', quoted_match: /\r/ } as const;

/** Rows stringified together: few enough to hold, enough to amortize the stringifier. */
const BATCH = 256;

function row(r: QuestionResult, withConversations: boolean, metadata: readonly string[]): (string | number)[] {
  const top = top1(r);
  const text = (s: string | undefined) => safeCell(s ?? '');
  const c = r.conversation;
  return [
    text(r.id), ...(withConversations ? [text(c?.id), c?.turn ?? '', text(c?.user), c?.verdict ?? ''] : []),
    text(r.question), text(r.language), text(r.tags.join('|')), r.expected.expect ?? '', text(describeExpected(r.expected)), r.outcome, text(r.reason),
    top?.sequence_number ?? '', text(top?.label), hasScores(r) ? (top?.answer_score ?? '') : '', text(top?.answer), top ? answerFlags(top).join('|') : '',
    r.latencyMs ?? '', r.attempts, text(r.error?.message),
    text(r.postProcessedAnswer), top?.delay ?? '', text(top?.category), text(top?.sub_category), text(top?.theme), text(top?.context), text(top?.snippet),
    text(top?.tags.join('|')), text(top?.answer_language), text(describeSent(r.sent)),
    ...metadata.map((m) => text(r.meta && Object.hasOwn(r.meta, m) ? r.meta[m] : undefined)), // a column named `constructor` is data, not Object's
  ];
}

/** The header of each metadata column: its name, with ` (dataset)` when a column of results.csv has it already. */
const metadataHeaders = (metadata: readonly string[], columns: readonly string[]): string[] =>
  metadata.map((m) => safeCell(columns.includes(m) ? `${m} (dataset)` : m));

/**
 * results.csv: one row per question, and per turn of a conversation (then with its conversation, turn, user and the
 * conversation's verdict), then the dataset's own columns (its metadata: notes, owner...), for spreadsheets (UTF-8 with BOM, so Excel reads accents right), a batch of rows at a time.
 */
export function* renderCsv({ head, results }: ScoredData): Generator<string> {
  const withConversations = head.metrics.conversations !== undefined;
  const fixed: string[] = withConversations ? [COLUMNS[0], ...CONVERSATION_COLUMNS, ...COLUMNS.slice(1)] : [...COLUMNS];
  const metadata = head.run.dataset.metadata?.columns ?? [];
  const columns = [...fixed, ...metadataHeaders(metadata, fixed)];
  yield stringify([], { ...OPTIONS, header: true, columns, bom: true });
  let batch: (string | number)[][] = [];
  for (const r of results) {
    batch.push(row(r, withConversations, metadata));
    if (batch.length === BATCH) {
      yield stringify(batch, OPTIONS);
      batch = [];
    }
  }
  if (batch.length > 0) yield stringify(batch, OPTIONS);
}
