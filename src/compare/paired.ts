import type { QuestionResult } from '../model/report.js';
import type { Pair } from './classify.js';
import { isCorrect, isJudged } from '../model/outcome.js';
import { isRanked, reciprocalRank } from '../score/metrics/rank-metrics.js';
import type { PairedDelta, SliceComparison } from './schema.js';
import { pairedBootstrap } from './stats/bootstrap.js';
import { holm } from './stats/holm.js';
import { mcnemarExact } from './stats/mcnemar.js';
import { streamSeed } from './stats/prng.js';

export interface StatsOptions {
  resamples: number;
  seed: number;
  confidence: number;
}

/** Pairs that enter the statistics: labeled and error-free on both sides. */
export const judgedPairs = (pairs: readonly Pair[]): Pair[] => pairs.filter((p) => isJudged(p.base.outcome) && isJudged(p.head.outcome));

const mean = (xs: readonly number[]): number | null => (xs.length === 0 ? null : xs.reduce((a, b) => a + b, 0) / xs.length);

/** Mean base, mean head and the bootstrap interval of the mean difference, for one per-question value. */
export function pairedDelta(baseValues: readonly number[], headValues: readonly number[], name: string, o: StatsOptions): PairedDelta {
  const diffs = headValues.map((h, i) => h - baseValues[i]!);
  const boot = pairedBootstrap(diffs, { resamples: o.resamples, seed: streamSeed(o.seed, name), confidence: o.confidence });
  return { n: diffs.length, base: mean(baseValues), head: mean(headValues), delta: boot?.delta ?? null, low: boot?.low ?? null, high: boot?.high ?? null };
}

/** McNemar counts and exact p on top-1 correctness. */
export function mcnemarOf(pairs: readonly Pair[]): { b: number; c: number; p: number } {
  let b = 0;
  let c = 0;
  for (const { base, head } of pairs) {
    if (isCorrect(base.outcome) && !isCorrect(head.outcome)) b++;
    else if (!isCorrect(base.outcome) && isCorrect(head.outcome)) c++;
  }
  return { b, c, p: mcnemarExact(b, c) };
}

export function accuracyDelta(pairs: readonly Pair[], name: string, o: StatsOptions): PairedDelta {
  const one = (r: QuestionResult) => (isCorrect(r.outcome) ? 1 : 0);
  return pairedDelta(pairs.map((p) => one(p.base)), pairs.map((p) => one(p.head)), name, o);
}

/**
 * MRR delta over the paired questions that rank metrics count on both sides (`isRanked`: expectations given,
 * no error), with the report's reciprocal rank, so comparing a report with itself gives the report's MRR.
 * When either report lacks `rank` on such a question (reports written before rank existed), the MRR is
 * unknown: null, with a note saying which side lacks it.
 */
export function mrrDelta(pairs: readonly Pair[], o: StatsOptions, name = 'mrr'): { mrr: PairedDelta | null; note: string | null } {
  const ranked = pairs.filter((p) => isRanked(p.base) && isRanked(p.head));
  const missing = (['base', 'head'] as const).filter((side) => ranked.some((p) => p[side].rank === undefined));
  if (missing.length > 0) {
    const who = missing.length === 2 ? 'neither report has a' : `the ${missing[0]} report has no`;
    return { mrr: null, note: `MRR not compared: ${who} per-question rank (written before answer-eval recorded it)` };
  }
  return { mrr: pairedDelta(ranked.map((p) => reciprocalRank(p.base)), ranked.map((p) => reciprocalRank(p.head)), name, o), note: null };
}

/**
 * The McNemar test, accuracy and MRR intervals per slice (MRR null as for the whole set), with Holm-adjusted p-values across the slices
 * of one breakdown (one family per breakdown: tags, categories). A question may be in several slices.
 */
export function compareSlices(pairs: readonly Pair[], keysOf: (p: Pair) => readonly string[], family: string, o: StatsOptions): SliceComparison[] {
  const groups = new Map<string, Pair[]>();
  for (const p of pairs) {
    for (const key of new Set(keysOf(p))) {
      const group = groups.get(key);
      if (group) group.push(p);
      else groups.set(key, [p]);
    }
  }
  const keys = [...groups.keys()].sort();
  const raw = keys.map((key) => {
    const group = groups.get(key)!;
    return { key, n: group.length, mcnemar: mcnemarOf(group), top1Accuracy: accuracyDelta(group, `${family}:${key}`, o), mrr: mrrDelta(group, o, `${family}:${key}:mrr`).mrr };
  });
  const adjusted = holm(raw.map((s) => s.mcnemar.p));
  return raw.map((s, i) => ({ key: s.key, n: s.n, mcnemar: s.mcnemar, pHolm: adjusted[i]!, top1Accuracy: s.top1Accuracy, mrr: s.mrr }));
}
