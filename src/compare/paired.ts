import type { QuestionResult } from '../model/report.js';
import { isCorrect, isJudged } from '../model/outcome.js';
import { CountedSum, isRanked, reciprocalRank } from '../score/metrics/rank-metrics.js';
import type { PairedDelta, SliceComparison } from './schema.js';
import { bootstrapMean, ValueCounter } from './stats/bootstrap.js';
import { holm } from './stats/holm.js';
import { mcnemarExact } from './stats/mcnemar.js';
import { streamSeed } from './stats/prng.js';

export interface StatsOptions {
  resamples: number;
  seed: number;
  confidence: number;
}

/** A pair that enters the statistics: labeled and error-free on both sides. */
export const isJudgedPair = (base: QuestionResult, head: QuestionResult): boolean => isJudged(base.outcome) && isJudged(head.outcome);

/**
 * One per-question value on both sides, each side summed by value (CountedSum: the same questions give the same
 * mean as the report's own, in whatever order they come), and its differences counted.
 */
class PairedValues {
  readonly base = new CountedSum();
  readonly head = new CountedSum();
  readonly diffs = new ValueCounter();

  add(base: number, head: number): void {
    this.base.add(base);
    this.head.add(head);
    this.diffs.add(head - base);
  }

  /** Mean base, mean head, their difference (head − base) and the bootstrap interval of the mean difference. */
  delta(name: string, o: StatsOptions): PairedDelta {
    const n = this.diffs.n;
    if (n === 0) return { n, base: null, head: null, delta: null, low: null, high: null };
    const [base, head] = [this.base.sum() / n, this.head.sum() / n];
    const boot = bootstrapMean(this.diffs.distinct(), head - base, { resamples: o.resamples, seed: streamSeed(o.seed, name), confidence: o.confidence });
    return { n, base, head, delta: boot?.delta ?? null, low: boot?.low ?? null, high: boot?.high ?? null };
  }
}

/**
 * The paired statistics of a set of judged pairs, one pair at a time, in counts: McNemar's discordant pairs, the
 * top-1 correctness and the reciprocal ranks as their sums and distinct differences. Memory does not grow with the
 * pairs (a few dozen distinct reciprocal-rank differences at most).
 */
export class PairedCounts {
  n = 0;
  /** base correct, head not */
  b = 0;
  /** base not correct, head correct */
  c = 0;
  private readonly accuracy = new PairedValues();
  private readonly rr = new PairedValues();
  private readonly rankMissing = { base: false, head: false };

  add(base: QuestionResult, head: QuestionResult): void {
    this.n++;
    const was = isCorrect(base.outcome);
    const now = isCorrect(head.outcome);
    if (was && !now) this.b++;
    else if (!was && now) this.c++;
    this.accuracy.add(was ? 1 : 0, now ? 1 : 0);
    if (isRanked(base) && isRanked(head)) {
      if (base.rank === undefined) this.rankMissing.base = true;
      if (head.rank === undefined) this.rankMissing.head = true;
      this.rr.add(reciprocalRank(base), reciprocalRank(head));
    }
  }

  /** McNemar counts and exact p on top-1 correctness. */
  mcnemar(): { b: number; c: number; p: number } {
    return { b: this.b, c: this.c, p: mcnemarExact(this.b, this.c) };
  }

  accuracyDelta(name: string, o: StatsOptions): PairedDelta {
    return this.accuracy.delta(name, o);
  }

  /**
   * MRR delta over the paired questions that rank metrics count on both sides (`isRanked`: expectations given, a
   * response), with the report's reciprocal rank: over the same questions, each side's MRR is its report's
   * metrics.rank.mrr, to the last bit.
   * When either report lacks `rank` on such a question (reports written before rank existed), the MRR is
   * unknown: null, with a note saying which side lacks it.
   */
  mrrDelta(name: string, o: StatsOptions): { mrr: PairedDelta | null; note: string | null } {
    const missing = (['base', 'head'] as const).filter((side) => this.rankMissing[side]);
    if (missing.length > 0) {
      const who = missing.length === 2 ? 'neither report has a' : `the ${missing[0]} report has no`;
      return { mrr: null, note: `MRR not compared: ${who} per-question rank (written before answer-eval recorded it)` };
    }
    return { mrr: this.rr.delta(name, o), note: null };
  }
}

/**
 * The paired statistics per slice of one breakdown (tags, categories): a question may be in several slices. The
 * result has McNemar, accuracy and MRR intervals per slice (MRR null as for the whole set), with Holm-adjusted
 * p-values across the slices (one family per breakdown).
 */
export class SliceCounts {
  private readonly slices = new Map<string, PairedCounts>();

  constructor(private readonly family: string) {}

  add(keys: Iterable<string>, base: QuestionResult, head: QuestionResult): void {
    for (const key of keys) {
      let slice = this.slices.get(key);
      if (!slice) this.slices.set(key, (slice = new PairedCounts()));
      slice.add(base, head);
    }
  }

  result(o: StatsOptions): SliceComparison[] {
    const keys = [...this.slices.keys()].sort();
    const raw = keys.map((key) => {
      const s = this.slices.get(key)!;
      return { key, n: s.n, mcnemar: s.mcnemar(), top1Accuracy: s.accuracyDelta(`${this.family}:${key}`, o), mrr: s.mrrDelta(`${this.family}:${key}:mrr`, o).mrr };
    });
    const adjusted = holm(raw.map((s) => s.mcnemar.p));
    return raw.map((s, i) => ({ key: s.key, n: s.n, mcnemar: s.mcnemar, pHolm: adjusted[i]!, top1Accuracy: s.top1Accuracy, mrr: s.mrr }));
  }
}
