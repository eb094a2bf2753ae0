import type { Slice } from '../../model/metrics.js';
import type { QuestionResult } from '../../model/report.js';
import { answerableFraction, top1Fraction, zeroCounts } from '../../model/outcome.js';
import { RankAccumulator } from './rank-metrics.js';
import { wilson } from './wilson.js';

/** Every headline metric over one slice, accumulated a result at a time. */
export class SliceAccumulator {
  private readonly outcomes = zeroCounts();
  private total = 0;
  private readonly rank = new RankAccumulator();

  constructor(private readonly key: string) {}

  add(r: QuestionResult): void {
    this.total++;
    this.outcomes[r.outcome]++;
    this.rank.add(r);
  }

  result(): Slice {
    const { outcomes, total } = this;
    const top1 = top1Fraction(outcomes);
    const answerable = answerableFraction(outcomes);
    return {
      key: this.key,
      total,
      outcomes,
      top1Accuracy: wilson(top1.successes, top1.n),
      answerableAccuracy: wilson(answerable.successes, answerable.n),
      rank: this.rank.result(),
      errorRate: total === 0 ? 0 : outcomes.error / total,
    };
  }
}

/** Slices keyed by one or more keys per result (a row with two tags is in both); memory is per key, not per result. */
export class SliceGroups {
  private readonly groups = new Map<string, SliceAccumulator>();

  constructor(private readonly keysOf: (r: QuestionResult) => readonly string[]) {}

  add(r: QuestionResult): void {
    for (const key of new Set(this.keysOf(r))) {
      let group = this.groups.get(key);
      if (!group) this.groups.set(key, (group = new SliceAccumulator(key)));
      group.add(r);
    }
  }

  /** The slices sorted by key. */
  result(): Slice[] {
    return [...this.groups.keys()].sort().map((key) => this.groups.get(key)!.result());
  }
}

export function sliceBy(results: Iterable<QuestionResult>, keysOf: (r: QuestionResult) => readonly string[]): Slice[] {
  const groups = new SliceGroups(keysOf);
  for (const r of results) groups.add(r);
  return groups.result();
}
