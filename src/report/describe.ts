import { describeExpectations } from '../model/expectations.js';
import { describeChecks } from '../model/turn-checks.js';
import { hasResponse } from '../model/outcome.js';
import type { QuestionResult, ReportAnswer } from '../model/report.js';
import { hasScores, top1 } from '../score/result.js';

/**
 * What a question expected, in words: `label billing-3 || billing-4; category Billing`, `fallback (out of scope)`, or
 * ``; a turn's checks follow: `label moving_house; dialog in_progress`.
 */
export function describeExpected(expected: QuestionResult['expected']): string {
  const words = describeExpectations(expected);
  const answer = expected.expect === 'fallback' ? 'fallback (out of scope)' : words === '' && expected.expect === 'answer' ? 'any knowledge answer' : words;
  return [answer, describeChecks(expected)].filter((w) => w !== '').join('; ');
}

/** The flags an answer carries, as short words: `dummy floor suggestion`. */
export function answerFlags(a: ReportAnswer): string[] {
  const flags: string[] = [];
  if (a.is_dummy_answer) flags.push('dummy');
  if (a.is_dummy_floor_answer) flags.push('floor');
  if (a.is_suggestion_answer) flags.push('suggestion');
  if (a.is_dialogue_answer) flags.push('dialogue');
  if (a.is_dialog_in_progress) flags.push('dialog-in-progress');
  if (a.is_international_question) flags.push('international');
  if (!a.is_agent_answer) flags.push('not-agent');
  return flags;
}

/** The top-1 answer in words: `billing-3 (seq 3, score 0.82, floor)`, `no answer`, the error, or `not asked` (a skipped turn). */
export function describeGot(result: QuestionResult): string {
  if (result.error) return `error: ${result.error.message}`;
  if (!hasResponse(result.outcome)) return 'not asked';
  const top = top1(result);
  if (!top) return 'no answer (empty list)';
  const extra = [`seq ${top.sequence_number}`, ...(hasScores(result) ? [`score ${round3(top.answer_score)}`] : []), ...answerFlags(top)];
  return `${top.label ?? `#${top.sequence_number}`} (${extra.join(', ')})`;
}

export const round3 = (v: number): number => Math.round(v * 1000) / 1000;

export { truncate } from '../util/text.js';

export const pct = (v: number | null | undefined, digits = 1): string => (v == null ? 'n/a' : `${(v * 100).toFixed(digits)}%`);
export const ms = (v: number | null | undefined): string => (v == null ? 'n/a' : `${Math.round(v)} ms`);
