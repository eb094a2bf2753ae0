import type { Asking, QuestionResult, Repeats } from '../model/report.js';
import { top1 } from './result.js';

/** The top-1 of one asking of a question, as consistency compares it. */
export function askingOf(r: Pick<QuestionResult, 'error' | 'top1Index' | 'answers'>): Asking {
  if (r.error) return { sequence: null, label: null, score: null, error: true };
  const top = top1(r);
  return top ? { sequence: top.sequence_number, label: top.label ?? null, score: top.answer_score, error: false } : { sequence: null, label: null, score: null, error: false };
}

/** Whether the askings that got a response share one top-1 (by sequence number; none is one too); null when fewer than two got one. */
export function consistentOf(askings: readonly Asking[]): boolean | null {
  const answered = askings.filter((a) => !a.error);
  if (answered.length < 2) return null;
  return answered.every((a) => a.sequence === answered[0]!.sequence);
}

/** A result's `repeats`: its other askings, and whether all of them (this one included) had the same top-1. */
export const repeatsOf = (first: QuestionResult, others: readonly Asking[]): Repeats => ({ consistent: consistentOf([askingOf(first), ...others]), others: [...others] });

/** `repeats` as if every top-1 scoring below `floor` had been refused (see rescore --floor); `first` is the result judged at that floor. */
export function repeatsAtFloor(first: QuestionResult, repeats: Repeats, floor: number): Repeats {
  const others = repeats.others.map((a) => (a.score !== null && a.score < floor ? { sequence: null, label: null, score: null, error: false } : a));
  return repeatsOf(first, others);
}
