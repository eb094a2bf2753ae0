import type { MatchableAnswer } from '../model/expectations.js';
import type { Matcher } from './match.js';

interface Scored {
  answer_score: number;
}

/**
 * Indices of `answers` from the highest score down; ties keep the server's order, so the first index
 * is the top-1 of `topIndex`.
 */
export function scoreOrder(answers: readonly Scored[]): number[] {
  return answers.map((_, i) => i).sort((a, b) => answers[b]!.answer_score - answers[a]!.answer_score || a - b);
}

/** 1-based rank, in score order, of the first answer the matcher accepts; null when none does. */
export function rankOf(answers: readonly MatchableAnswer[], order: readonly number[], matcher: Matcher): number | null {
  const at = order.findIndex((i) => matcher(answers[i]!));
  return at < 0 ? null : at + 1;
}

/** Top-1 score minus the runner-up's, in score order; null with fewer than two answers. */
export function marginOf(answers: readonly Scored[], order: readonly number[]): number | null {
  if (order.length < 2) return null;
  return answers[order[0]!]!.answer_score - answers[order[1]!]!.answer_score;
}
