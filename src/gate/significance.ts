import { interval } from '../compare/render/format.js';
import type { Comparison } from '../compare/schema.js';
import { mcnemarMinBroken } from '../compare/stats/mcnemar.js';
import type { GateResult } from '../model/verdict.js';
import { f3 } from './threshold.js';

/** Where to go for a gate that fails on one broken question. */
const COUNT_GATE = 'to fail on any broken question, use --fail-on regression (or --max-broken N)';

/**
 * What the test could see: the fewest broken questions that would be significant with the fixed ones observed, and
 * whether this many paired questions can hold them. Said whenever the gate passes, so a pass is not read as "nothing
 * broke" when the test could not have failed.
 */
function power(c: Comparison, alpha: number): string {
  const { n, mcnemar } = c.paired;
  const need = mcnemarMinBroken(mcnemar.c, alpha);
  const fixed = `${mcnemar.c} fixed`;
  if (need > n - mcnemar.c) {
    return `with ${n} paired questions and ${fixed}, no number of broken questions can be significant at --alpha ${alpha} (it takes ${need}): this gate cannot fail here; ${COUNT_GATE}`;
  }
  return `with ${fixed}, it takes at least ${need} broken questions to be significant at --alpha ${alpha}, so this gate does not fail on fewer; ${COUNT_GATE}`;
}

/**
 * When the paired bootstrap interval of the accuracy change and McNemar's test disagree: the interval lies wholly
 * below 0 but p >= alpha, or p < alpha but the interval holds 0. Either way the reader must know both.
 */
function disagreement(c: Comparison, alpha: number, significant: boolean): string | undefined {
  const acc = c.paired.top1Accuracy;
  if (acc.low === null || acc.high === null) return undefined;
  const level = `${Math.round(c.options.confidence * 1000) / 10}%`;
  const levels = Math.abs(1 - c.options.confidence - alpha) > 1e-9 ? ` (at another level than --alpha ${alpha})` : '';
  const ci = `the paired bootstrap ${level} interval of the accuracy change (${interval(acc)})`;
  if (!significant && acc.high < 0) {
    return `McNemar and the bootstrap interval disagree: ${ci} lies wholly below 0${levels}, yet McNemar's p is not below --alpha ${alpha}; with this few changed questions the bootstrap interval is approximate and the exact test is the one this gate uses`;
  }
  if (significant && acc.low <= 0 && acc.high >= 0) {
    return `McNemar and the bootstrap interval disagree: McNemar's p is below --alpha ${alpha}, yet ${ci} holds 0${levels}`;
  }
  return undefined;
}

/**
 * `--fail-on significant-regression`: fails when the exact McNemar p < alpha and accuracy went down (b > c). McNemar
 * counts every question that broke, quarantined or not (the statistics describe the change). The message states the
 * test's power when it passes and says when the bootstrap interval disagrees. Pure.
 */
export function significanceGate(c: Comparison, alpha: number): GateResult {
  const { b, c: fixed, p } = c.paired.mcnemar;
  const delta = c.paired.top1Accuracy.delta ?? 0;
  const down = b > fixed;
  const significant = down && p < alpha;
  const quarantined = c.counts.quarantined > 0 ? `, ${c.counts.quarantined} of them quarantined` : '';
  const what = `paired top1Accuracy ${delta >= 0 ? '+' : ''}${f3(delta)} on ${c.paired.n} questions (${b} broken${quarantined}, ${fixed} fixed), McNemar p ${p.toPrecision(3)}`;
  const verdict = significant
    ? `${what} < --alpha ${alpha} (significant regression)`
    : down
      ? `${what} >= --alpha ${alpha}: not a significant regression; ${power(c, alpha)}`
      : `${what}: accuracy did not go down, not a regression; ${power(c, alpha)}`;
  const disagree = disagreement(c, alpha, significant);
  return {
    gate: '--fail-on significant-regression',
    metric: 'mcnemarP',
    threshold: alpha,
    value: p,
    passed: !significant,
    message: disagree === undefined ? verdict : `${verdict}. ${disagree}`,
  };
}
