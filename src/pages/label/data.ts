// What the label page and its server say to each other (the JSON of each request and reply), typed once for both.

/** An answer of a question, as the page shows it. */
export interface LabelAnswer {
  /** 1-based, in score order: the digit that picks it. */
  rank: number;
  sequence: number;
  label?: string;
  category?: string;
  score: number;
  /** The answer's text, cut to 400 characters. */
  text: string;
  /** `dummy` (small talk), `floor` (the service's refusal), `suggestion`. */
  flags: ('dummy' | 'floor' | 'suggestion')[];
  /** False for the floor answer: "should be refused" says that. */
  pickable: boolean;
}

/** A question to label. */
export interface LabelItem {
  id: string;
  line: number;
  question: string;
  language: string;
  /** How often it was asked (the set's `count`; 1 without one). */
  count: number;
  /** Its outcome in the run: unlabeled, or wrong, abstained, fallback missed with --wrong. */
  outcome: string;
  /** What the row expects now, in words (for a wrong one); absent when nothing. */
  expected?: string;
  answers: LabelAnswer[];
  /** The closeness that ordered it (see src/label/order.ts); null when it has no knowledge answer. */
  closeness: number | null;
}

/** How far the labeling is. */
export interface Progress {
  /** Decisions in force in the log (an answer or "should be refused"). */
  labeled: number;
  /** Questions still to label (skipped ones included). */
  todo: number;
  skipped: number;
}

/** A rate with its 95% interval, as rescore computes it. */
export interface Rate {
  value: number | null;
  low: number | null;
  high: number | null;
  successes: number;
  n: number;
}

/** The run judged again against the set as it is now (answer-eval rescore RUN -d SET), without asking anything. */
export interface Figures {
  revision: string;
  top1Accuracy: Rate;
  answerableAccuracy: Rate;
  /** Questions of the run judged (labeled, without error). */
  judged: number;
  total: number;
  /** Why there are none: rescore refused the set (e.g. a question the run did not ask). */
  problem?: string;
}

/** The reply to `state`: what the page shows first. */
export interface LabelState {
  /** sha256 of the set's bytes when read: every write names it, and is refused if the file is not that any more. */
  revision: string;
  set: { path: string; format: 'csv' | 'jsonl'; column: string; log: string };
  run: { path: string; startedAt: string; target: string; questions: number };
  /** The knowledge base searched, or null without one. */
  kb: string | null;
  progress: Progress;
  /** The first questions to label, in order. */
  items: LabelItem[];
  /** What the editor should know (questions of the run not in the set, a log entry replayed, ...). */
  notes: string[];
}

export type DecisionRequest = { kind: 'answer'; sequence: number } | { kind: 'fallback' } | { kind: 'skip' };

export interface DecideRequest {
  revision: string;
  id: string;
  decision: DecisionRequest;
}

/** After a decision or an undo: the set's new revision and the progress. */
export interface WriteReply {
  revision: string;
  progress: Progress;
  /** After an undo: the question undone, to be shown again (absent when it is not one of this run's). */
  item?: LabelItem;
}

export interface NextRequest {
  /** Questions the page holds already. */
  exclude: string[];
  count: number;
}

/** A knowledge-base entry found by a search. */
export interface KbHit {
  sequence: number;
  label?: string;
  category?: string;
  text: string;
}

/** The reply to any refused request: what to say. `conflict`: the set changed on disk since the page read it. */
export interface ErrorReply {
  error: string;
  conflict?: boolean;
}

/** The header every request of the page carries its token in. */
export const TOKEN_HEADER = 'X-Answer-Eval-Token';
