import { failingCount, fallbackMissedFraction, needsAttention, ratio, type OutcomeCounts } from '../model/outcome.js';
import { pct } from './describe.js';
import type { Confusion, ConversationMetrics } from '../model/metrics.js';
import type { QuestionResult } from '../model/report.js';
import type { ScoredData } from '../model/source.js';

export const DIMENSIONS = ['category', 'language', 'tag'] as const;
export type Dimension = (typeof DIMENSIONS)[number];

/** One slice as the readable reports show it. */
export interface SliceView {
  key: string;
  total: number;
  /** top-1 accuracy over labeled questions without error */
  accuracy: number | null;
  low: number | null;
  high: number | null;
  /** wrong + abstained + fallback_missed */
  failures: number;
  errors: number;
}

const worstFirst = (list: SliceView[]): SliceView[] =>
  list.sort((a, b) => (a.accuracy ?? 2) - (b.accuracy ?? 2) || b.total - a.total || (a.key < b.key ? -1 : 1));

/** The slices of every dimension, each worst top-1 accuracy first (then the bigger slice); slices with no labeled question last. */
export function allSlices({ head }: ScoredData): Record<Dimension, SliceView[]> {
  const views = (dim: Dimension): SliceView[] =>
    worstFirst(head.metrics.breakdowns[dim].map((s) => ({
      key: s.key, total: s.total, accuracy: s.top1Accuracy.value, low: s.top1Accuracy.low, high: s.top1Accuracy.high,
      failures: failingCount(s.outcomes), errors: s.outcomes.error,
    })));
  return { category: views('category'), language: views('language'), tag: views('tag') };
}

/** The most frequent (expected → got) pairs among in-scope questions. */
export const confusions = ({ head }: ScoredData, limit = 20): Confusion[] => head.metrics.confusions.slice(0, limit);

/** The entries that answered out-of-scope questions, most first. */
export const outOfScopeMisses = ({ head }: ScoredData, limit = 20): Confusion[] => head.metrics.outOfScopeMisses.slice(0, limit);

/**
 * The out-of-scope questions answered anyway (`fallback_missed`), over the out-of-scope questions the headline's
 * out-of-scope recall and --max-fallback-missed-rate count: `12 of 17 out-of-scope questions (fallback missed rate 70.6%)`.
 */
export function fallbackMissedText(outcomes: OutcomeCounts): string {
  const f = fallbackMissedFraction(outcomes);
  return `${f.successes} of ${f.n} out-of-scope questions (fallback missed rate ${pct(ratio(f))})`;
}

/** How many of the out-of-scope questions answered anyway the listed entries leave out (the list is cut short). */
export const unlistedMisses = (outcomes: OutcomeCounts, listed: readonly Confusion[]): number =>
  outcomes.fallback_missed - listed.reduce((n, c) => n + c.count, 0);

/**
 * The first `limit` questions that need a look (failures and errors), only those `which` keeps (e.g. single questions,
 * not turns); the read stops there. How many there are in all comes from the summary (attentionCount).
 */
export function firstFailing(results: Iterable<QuestionResult>, limit: number, which: (r: QuestionResult) => boolean = () => true): QuestionResult[] {
  const first: QuestionResult[] = [];
  if (limit <= 0) return first;
  for (const r of results) {
    if (!needsAttention(r.outcome) || !which(r)) continue;
    first.push(r);
    if (first.length === limit) break;
  }
  return first;
}

/** A single question, not a turn of a conversation. */
export const isSingle = (r: QuestionResult): boolean => r.conversation === undefined;

/**
 * The first `limit` conversations that failed or ended in error, each as its deciding turn (the first that failed,
 * or the one that ended in error: `conversation.at`); the read stops there. How many there are: failingConversations.
 */
export function firstFailingConversations(results: Iterable<QuestionResult>, limit: number): QuestionResult[] {
  const first: QuestionResult[] = [];
  if (limit <= 0) return first;
  for (const r of results) {
    if (r.conversation === undefined || r.conversation.at !== r.conversation.turn) continue;
    first.push(r);
    if (first.length === limit) break;
  }
  return first;
}

/** How many conversations failed or ended in error. */
export const failingConversations = (c: ConversationMetrics | undefined): number => (c ? c.verdicts.failed + c.verdicts.error : 0);
