import type { Comparison, MetricDelta, PairedDelta } from '../schema.js';
import { unmeasuredText } from '../coverage.js';
import { renamedByLine, unpairedCount } from '../line-ids.js';

/** Number formatting shared by the compare renderers. */
export const pct = (v: number | null): string => (v === null ? 'n/a' : `${(v * 100).toFixed(1)}%`);
/** Signed, by the sign of what is shown: −0.3 ms at 0 digits is ±0 ms, not −0 ms. */
export const signed = (v: number, digits: number): string => {
  const shown = Number(v.toFixed(digits));
  return `${shown > 0 ? '+' : shown < 0 ? '−' : '±'}${Math.abs(shown).toFixed(digits)}`;
};
/** A difference of shares in percentage points. */
export const pts = (v: number | null): string => (v === null ? 'n/a' : `${signed(v * 100, 1)} pts`);
export const ms = (v: number | null): string => (v === null ? 'n/a' : `${Math.round(v)} ms`);
export const msDelta = (v: number | null): string => (v === null ? 'n/a' : `${signed(v, 0)} ms`);
export const pValue = (p: number): string => (p < 0.0001 ? '< 0.0001' : p.toPrecision(3));
export const score = (v: number | null | undefined): string => (v === null || v === undefined ? 'n/a' : String(Number(v.toPrecision(6))));
/** A score difference, signed. */
export const scoreDelta = (v: number | null): string => (v === null ? 'n/a' : `${v > 0 ? '+' : v < 0 ? '−' : '±'}${score(Math.abs(v))}`);
export const interval = (d: PairedDelta): string => (d.low === null || d.high === null ? 'n/a' : `${pts(d.low)} … ${pts(d.high)}`);

/** The metric table rows: label, base, head and delta, formatted. */
export function metricRows(c: Comparison): [string, string, string, string][] {
  const share = (label: string, m: MetricDelta): [string, string, string, string] => [label, pct(m.base), pct(m.head), pts(m.delta)];
  const time = (label: string, m: MetricDelta): [string, string, string, string] => [label, ms(m.base), ms(m.head), msDelta(m.delta)];
  const m = c.metrics;
  return [
    share('top-1 accuracy', m.top1Accuracy),
    share('answerable accuracy', m.answerableAccuracy),
    share('fallback missed rate', m.fallbackMissedRate),
    share('dummy (small-talk) rate', m.dummyRate),
    share('floor rate', m.floorRate),
    share('error rate', m.errorRate),
    time('latency p50', m.latencyP50),
    time('latency p90', m.latencyP90),
  ];
}

/** How the two question sets relate: `112 common, 3 added, 0 removed, 1 changed (question or expectation edited)`. */
export function questionSets(c: Comparison): string {
  const n = c.counts;
  const unmeasured = c.unmeasured ? ` (${c.unmeasured.questions} not measured by HEAD)` : '';
  return `${n.common} common, ${n.added} added, ${n.removed} removed${unmeasured}, ${n.changed} changed (question or expectation edited)`;
}

/** The quarantine in a sentence: `quarantine q.txt: 12 ids; 1 broke, but quarantined; 2 ids are in neither run (q998, q999)`; null without one. */
export function quarantineText(c: Comparison): string | null {
  const q = c.quarantine;
  if (q === undefined) return null;
  const n = c.counts.quarantined + (c.conversations?.counts.quarantined ?? 0);
  const unknown = q.unknownCount === 0 ? '' : `; ${q.unknownCount} ${q.unknownCount === 1 ? 'id is' : 'ids are'} in neither run (${q.unknown.slice(0, 10).join(', ')}${q.unknownCount > 10 ? ', ...' : ''})`;
  return `quarantine ${q.file}: ${q.ids} ${q.ids === 1 ? 'id' : 'ids'}; ${n} broke, but quarantined (not counted as regressions)${unknown}`;
}

/** Said when the question sets differ: what the classes, statistics and metric deltas are computed on. */
export function scopeNote(c: Comparison): string | null {
  const n = c.counts;
  if (n.added + n.removed + n.changed === 0) return null;
  return `classes, statistics, metric deltas and regression gates use the ${n.common} common questions; added, removed and changed ones are listed apart`;
}

/** The one-line verdict on the paired accuracy change. */
export function verdict(c: Comparison): string {
  const { n, mcnemar, top1Accuracy: acc } = c.paired;
  if (n === 0) return 'no question is labeled and error-free in both reports: nothing to test';
  const quarantined = c.counts.quarantined > 0 ? ` (${c.counts.quarantined} of them quarantined)` : '';
  return `paired top-1 accuracy ${pts(acc.delta)} (95% CI ${interval(acc)}) on ${n} questions: ${mcnemar.b} broken${quarantined}, ${mcnemar.c} fixed, exact McNemar p ${pValue(mcnemar.p)}`;
}

const dec = (v: number | null): string => (v === null ? 'n/a' : v.toFixed(3));

/** An MRR delta, signed, or n/a. */
export const mrrDeltaText = (m: PairedDelta | null): string => (m === null || m.delta === null ? 'n/a' : signed(m.delta, 3));

/** Who compare's MRR counts: the questions each report's metrics.rank counts, in both. */
export const MRR_POPULATION = 'ranked questions (with expected_*, answered in both runs)';

/** The MRR change, or why it is not compared. */
export function mrrText(c: Comparison): string | null {
  const m = c.paired.mrr;
  if (m === null) return c.paired.mrrNote;
  const ci = m.low === null || m.high === null ? 'n/a' : `${signed(m.low, 3)} … ${signed(m.high, 3)}`;
  return `MRR ${dec(m.base)} → ${dec(m.head)} (Δ ${m.delta === null ? 'n/a' : signed(m.delta, 3)}, 95% CI ${ci}) on ${m.n} ${MRR_POPULATION}`;
}

/**
 * What the reader of a comparison must know before trusting it, one sentence each:
 * - a side that is a partial run (stopped early): the questions it did not ask are counted as added or removed, so
 *   no regression gate judges them. Comparing with a partial baseline is most often a mistake;
 * - HEAD did not measure questions BASE measured (a shard, a partial run, fewer of the same dataset): no regression
 *   gate can pass;
 * - a side whose dataset has no id column when the question sets differ: its questions are named by their line, so
 *   a row added or removed renamed every question after it.
 */
export function compareWarnings(c: Comparison): string[] {
  const sides = [['base', c.base, 'added'], ['head', c.head, 'removed']] as const;
  const out = sides
    // HEAD's unasked questions that BASE measured are said below, with what they do to the gates
    .filter(([name, ref]) => ref.status === 'partial' && !(name === 'head' && c.unmeasured))
    .map(([name, ref, as]) => `the ${name} run (${ref.file}) is PARTIAL: it stopped before asking every question, and those it did not ask are counted as ${as}, judged by no regression gate; finish it with answer-eval run --resume, or compare with a completed run`);
  const unmeasured = unmeasuredText(c);
  if (unmeasured !== undefined) out.push(`${unmeasured}: no regression gate can pass on this comparison`);
  const byLine = renamedByLine(c);
  if (byLine.length > 0) {
    out.push(
      `${byLine.length === 2 ? 'neither dataset has an id column, so their' : `the ${byLine[0]} dataset has no id column, so its`} questions are named by their line: a row added or removed renames every question after it, ` +
        `and ${unpairedCount(c)} questions were taken as added, removed or changed: a regression gate cannot be judged (it fails); give each row a stable id`,
    );
  }
  return out;
}
