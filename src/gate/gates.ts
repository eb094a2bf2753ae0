import { fallbackMissedFraction, ratio } from '../model/outcome.js';
import type { Comparison } from '../compare/schema.js';
import type { Summary } from '../model/report.js';
import type { GateResult } from '../model/verdict.js';
import { renamedByLine } from '../compare/line-ids.js';
import { significanceGate } from './significance.js';

export type { GateResult } from '../model/verdict.js';

/** Thresholds judged on one report (on `compare`: the HEAD report). Rates are shares in 0..1. */
export interface QualityGates {
  minAccuracy?: number;
  minAnswerableAccuracy?: number;
  maxErrorRate?: number;
  maxFallbackMissedRate?: number;
}

export type FailOn = 'regression' | 'significant-regression';
export const FAIL_ON: readonly FailOn[] = ['regression', 'significant-regression'];

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

const f3 = (v: number): string => v.toFixed(3);

function minimum(name: string, metric: string, flag: string, value: number | null, min: number, whenNull: string): GateResult {
  const at = { gate: flag, metric, threshold: min, value };
  if (value === null) return { ...at, passed: false, message: `${name} n/a (${whenNull}) cannot meet ${flag} ${min}` };
  const passed = value >= min;
  return { ...at, passed, message: passed ? `${name} ${f3(value)} >= ${flag} ${min}` : `${name} ${f3(value)} < ${flag} ${min} (short by ${f3(min - value)})` };
}

function maximum(name: string, metric: string, flag: string, value: number | null, max: number): GateResult {
  const at = { gate: flag, metric, threshold: max, value };
  // nothing to count (e.g. no fallback question) cannot exceed a maximum
  if (value === null) return { ...at, passed: true, message: `${name} n/a (nothing to count) passes ${flag} ${max}` };
  const passed = value <= max;
  return { ...at, passed, message: passed ? `${name} ${f3(value)} <= ${flag} ${max}` : `${name} ${f3(value)} > ${flag} ${max} (over by ${f3(value - max)})` };
}

/** Judges the quality gates that were set on one report's summary. Pure. */
export function qualityGates(summary: Summary, gates: QualityGates): GateResult[] {
  const out: GateResult[] = [];
  if (gates.minAccuracy !== undefined) out.push(minimum('top1Accuracy', 'top1Accuracy', '--min-accuracy', summary.top1Accuracy, gates.minAccuracy, 'no labeled question without error'));
  if (gates.minAnswerableAccuracy !== undefined)
    out.push(minimum('answerableAccuracy', 'answerableAccuracy', '--min-answerable-accuracy', summary.answerableAccuracy, gates.minAnswerableAccuracy, 'no answerable question without error'));
  if (gates.maxErrorRate !== undefined) out.push(maximum('error rate', 'errorRate', '--max-error-rate', summary.total === 0 ? null : summary.rates.error, gates.maxErrorRate));
  if (gates.maxFallbackMissedRate !== undefined)
    out.push(maximum('fallback missed rate', 'fallbackMissedRate', '--max-fallback-missed-rate', ratio(fallbackMissedFraction(summary.outcomes)), gates.maxFallbackMissedRate));
  return out;
}

/** The first ten ids of a list and how many more there are. */
const firstIds = (ids: readonly string[], count: number): string => {
  const shown = ids.slice(0, 10);
  return shown.join(', ') + (count > shown.length ? `, ... (${count - shown.length} more)` : '');
};

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
 * Why a comparison cannot judge a regression, if it cannot: no question in common with the base run, or questions
 * named by their line (a dataset without ids) that moved, so the same id no longer names the same question.
 */
function uncompared(c: Comparison): string | undefined {
  const n = c.counts;
  const moved = `${n.added} added, ${n.removed} removed, ${n.changed} changed`;
  if (n.common === 0) return `no question is in both runs with the same id and text (${moved}): nothing was compared`;
  if (renamedByLine(c).length > 0) {
    return `the questions are named by their line (a dataset without an id column) and rows moved (${moved}): the same id no longer names the same question; give each row a stable id`;
  }
  return undefined;
}

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
    const passed = broken <= gates.maxBroken;
    out.push({
      gate: '--max-broken',
      metric: 'broken',
      threshold: gates.maxBroken,
      value: broken,
      passed,
      message: `${passed ? `${broken} broken <= --max-broken ${gates.maxBroken}` : `${broken} broken questions > --max-broken ${gates.maxBroken} (over by ${broken - gates.maxBroken}): ${listIds(c)}`}${quarantinedNote(c, !passed)}`,
    });
  }
  return out;
}

/** The messages of the gates that failed. */
export const failures = (results: readonly GateResult[]): string[] => results.filter((r) => !r.passed).map((r) => r.message);
