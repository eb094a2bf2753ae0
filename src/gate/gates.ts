import { fallbackMissedFraction, ratio } from '../model/outcome.js';
import type { FailOn } from './fail-on.js';
import type { Comparison } from '../compare/schema.js';
import type { Summary } from '../model/report.js';
import type { GateResult } from '../model/verdict.js';
import { unmeasuredText } from '../compare/coverage.js';
import { renamedByLine } from '../compare/line-ids.js';
import { significanceGate } from './significance.js';
import { atLeast, atMost, countAtMost, firstIds } from './threshold.js';

export type { GateResult } from '../model/verdict.js';

/** Thresholds judged on one report (on `compare`: the HEAD report). Rates are shares in 0..1. */
export interface QualityGates {
  minAccuracy?: number;
  minAnswerableAccuracy?: number;
  maxErrorRate?: number;
  maxFallbackMissedRate?: number;
}

export { FAIL_ON, type FailOn } from './fail-on.js';

/** Gates judged on a comparison with a baseline. */
export interface RegressionGates {
  /**
   * `regression`: any broken question (one in the quarantine broke, but is not counted); `significant-regression`:
   * exact McNemar p < alpha and accuracy went down (every broken question counts: the test describes the change).
   */
  failOn?: FailOn;
  /** @default 0.05 */
  alpha?: number;
  /** Fail when more than this many questions broke (those in the quarantine are not counted). */
  maxBroken?: number;
}

/** Judges the quality gates that were set on one report's summary. Pure. */
export function qualityGates(summary: Summary, gates: QualityGates): GateResult[] {
  const out: GateResult[] = [];
  if (gates.minAccuracy !== undefined) {
    out.push(atLeast({ name: 'top1Accuracy', metric: 'top1Accuracy', flag: '--min-accuracy', value: summary.top1Accuracy }, gates.minAccuracy, 'no labeled question without error'));
  }
  if (gates.minAnswerableAccuracy !== undefined) {
    const measure = { name: 'answerableAccuracy', metric: 'answerableAccuracy', flag: '--min-answerable-accuracy', value: summary.answerableAccuracy };
    out.push(atLeast(measure, gates.minAnswerableAccuracy, 'no answerable question without error'));
  }
  if (gates.maxErrorRate !== undefined) {
    out.push(atMost({ name: 'error rate', metric: 'errorRate', flag: '--max-error-rate', value: summary.total === 0 ? null : summary.rates.error }, gates.maxErrorRate));
  }
  if (gates.maxFallbackMissedRate !== undefined) {
    const measure = { name: 'fallback missed rate', metric: 'fallbackMissedRate', flag: '--max-fallback-missed-rate', value: ratio(fallbackMissedFraction(summary.outcomes)) };
    out.push(atMost(measure, gates.maxFallbackMissedRate));
  }
  return out;
}

const listIds = (c: Comparison): string => firstIds(c.questions.broken.map((q) => q.id), c.counts.broken);

/** The questions that broke but are quarantined, said beside a count gate's verdict (they are not counted); '' when none. */
function quarantinedNote(c: Comparison, failed: boolean): string {
  const n = c.counts.quarantined;
  if (n === 0) return '';
  const ids = firstIds(c.questions.quarantined.map((q) => q.id), n);
  return failed ? `; besides, ${n} broke, but quarantined (${ids}): not counted` : ` (${n} broke, but quarantined: ${ids})`;
}

/**
 * `--fail-on regression` on conversations, when the runs share some: any conversation that passed in BASE and failed
 * in HEAD. One that ended in error in HEAD is listed as broken but, as errors never are, is not a regression.
 */
function brokenConversations(c: Comparison): GateResult | undefined {
  const conversations = c.conversations;
  if (conversations === undefined || conversations.counts.common === 0) return undefined;
  const n = conversations.counts.broken - conversations.counts.brokenByError;
  const failed = conversations.broken.filter((b) => b.head.verdict === 'failed');
  const which = firstIds(failed.map((b) => `${b.id} at turn ${b.turn.turn}`), n);
  const q = conversations.counts.quarantined;
  const note = q === 0 ? '' : `${n === 0 ? ' (' : '; besides, '}${q} broke, but quarantined (${firstIds(conversations.quarantined.map((b) => b.id), q)})${n === 0 ? ')' : ': not counted'}`;
  return {
    // a name of its own, so a CI view that lists gates by name (junit.xml) keeps both results of the flag
    gate: '--fail-on regression (conversations)',
    metric: 'brokenConversations',
    threshold: 0,
    value: n,
    passed: n === 0,
    message: `${n === 0 ? 'no broken conversation' : `${n} broken conversation${n === 1 ? '' : 's'} (${which}) with --fail-on regression`}${note}`,
  };
}

/**
 * Why a comparison cannot judge a regression, if it cannot: no question in common with the base run, questions
 * named by their line (a dataset without ids) that moved, so the same id no longer names the same question, or
 * questions BASE measured that HEAD did not (see unmeasuredOf).
 */
export function uncompared(c: Comparison): string | undefined {
  const n = c.counts;
  const moved = `${n.added} added, ${n.removed} removed, ${n.changed} changed`;
  if (n.common === 0) return `no question is in both runs with the same id and text (${moved}): nothing was compared`;
  if (renamedByLine(c).length > 0) {
    return `the questions are named by their line (a dataset without an id column) and rows moved (${moved}): the same id no longer names the same question; give each row a stable id`;
  }
  if (nothingCompared(c)) return `every one of the ${n.common} questions in both runs ended in error in one of them (errors are never regressions): nothing was compared`;
  if (n.paired === 0) return `none of the ${n.common} questions in both runs is labeled and answered without error in both: no regression can be judged`;
  // BASE's questions that HEAD did not measure (a shard, a partial run) may have broken: what was compared is no verdict on them
  return unmeasuredText(c);
}

/**
 * The exit-3 reason of a comparison judged by regression gates that cannot judge it because HEAD did not measure
 * questions BASE measured (a shard, a partial run: see unmeasuredOf), one line naming the gates; undefined otherwise.
 */
export function unjudged(c: Comparison, gates: RegressionGates): string | undefined {
  const why = unmeasuredText(c);
  const flags = [...(gates.failOn ? [`--fail-on ${gates.failOn}`] : []), ...(gates.maxBroken !== undefined ? ['--max-broken'] : [])];
  return why === undefined || flags.length === 0 ? undefined : `${flags.join(' and ')} cannot be judged: ${why}`;
}

/** No question of both runs got an answer in both (none in common, or each ended in error in one): the comparison measured nothing. */
export const nothingCompared = (c: Comparison): boolean => c.counts.common === c.counts.errors;

/**
 * Judges the regression gates that were set on a comparison. Errors are never regressions (see --max-error-rate).
 * `--fail-on regression` also judges the conversations the runs share (a second result); `--max-broken` and
 * `significant-regression` count questions (a conversation's failing turn among them). Pure.
 */
export function regressionGates(c: Comparison, gates: RegressionGates): GateResult[] {
  const out: GateResult[] = [];
  const why = uncompared(c);
  if (why !== undefined) {
    // a gate on questions it could not compare never passes: nothing broken among none compared is no evidence
    const flags = [...(gates.failOn ? [`--fail-on ${gates.failOn}`] : []), ...(gates.maxBroken !== undefined ? ['--max-broken'] : [])];
    return flags.map((gate) => ({ gate, metric: 'common', threshold: 1, value: c.counts.common, passed: false, message: `${gate} cannot be judged: ${why}` }));
  }
  const broken = c.counts.broken;
  if (gates.failOn === 'regression') {
    out.push({
      gate: '--fail-on regression',
      metric: 'broken',
      threshold: 0,
      value: broken,
      passed: broken === 0,
      message: `${broken === 0 ? 'no broken question' : `${broken} broken question${broken === 1 ? '' : 's'} (${listIds(c)}) with --fail-on regression`}${quarantinedNote(c, broken > 0)}`,
    });
    const conversations = brokenConversations(c);
    if (conversations) out.push(conversations);
  }
  if (gates.failOn === 'significant-regression') out.push(significanceGate(c, gates.alpha ?? 0.05));
  if (gates.maxBroken !== undefined) {
    const gate = countAtMost('--max-broken', 'broken', broken, gates.maxBroken, (passed) => `${broken} broken${passed ? '' : ' questions'}`, listIds(c));
    out.push({ ...gate, message: `${gate.message}${quarantinedNote(c, !gate.passed)}` });
  }
  return out;
}

/** The messages of the gates that failed. */
export const failures = (results: readonly GateResult[]): string[] => results.filter((r) => !r.passed).map((r) => r.message);
