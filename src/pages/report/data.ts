// report.html's page data: what src/report/html/data.ts writes and the page reads. Types and field positions only,
// so both sides import it (the Node side for the types; the page code bundles the positions).

/**
 * A distinct answer: [text, sequence_number, label, category, flag bits, its other fields]. Knowledge answers repeat
 * across questions, so they are stored once.
 */
export type PageAnswer = [string, number, string, string, number, PageAnswerFields];

/** Where each field of a PageAnswer sits. */
export const A = { text: 0, seq: 1, label: 2, category: 3, flags: 4, fields: 5 } as const;

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

/** Where each field of a PageRow sits (`row[R.question]`). A new field goes last, optional, and gets a name here. */
export const R = {
  id: 0, question: 1, language: 2, tags: 3, outcome: 4, expected: 5, latency: 6, attempts: 7, error: 8, answers: 9,
  top: 10, rank: 11, line: 12, why: 13, category: 14, expectedEntry: 15, gotEntry: 16, turn: 17, meta: 18, detail: 19,
} as const;

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

/** Where each field of a PageTurn sits. */
export const T = { conversation: 0, turn: 1, turns: 2, verdict: 3, at: 4, user: 5, checks: 6, post: 7 } as const;

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
 * What the page's script turns into question-table filters: an element with class `goto` and any of these as
 * `data-*` attributes (`data-expected="billing-3"`), on a click or Enter, shows the questions that match all of
 * them (every other filter cleared; the outcome filter is `all` unless given).
 */
export interface QuestionFilter {
  /** An outcome, or `failing` (failures and errors). */
  outcome?: string;
  category?: string;
  language?: string;
  tag?: string;
  /** The entry the question expects, as the entry table counts it (an entry key, `(out of scope)`, `(any answer)`). */
  expected?: string;
  /** The entry its top-1 counts as (an entry key, or `(refused)`). */
  got?: string;
  /** A question id (searched for; a single match opens). */
  id?: string;
}
