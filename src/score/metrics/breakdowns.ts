import type { Slice } from '../../model/metrics.js';
import type { QuestionResult } from '../../model/report.js';
import { answerableFraction, top1Fraction, zeroCounts } from '../../model/outcome.js';
import { matchedAnswer } from '../result.js';
import { normalizeText } from '../../model/normalize.js';
import { RankAccumulator } from './rank-metrics.js';
import { wilson } from './wilson.js';

/** Slice key of rows without an expected category: out-of-scope rows, and rows whose category is unknown. */
export const OUT_OF_SCOPE = '(out of scope)';
export const NO_CATEGORY = '(category unknown)';

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

const isPlain = (v: string): boolean => !v.startsWith('re:') && !v.startsWith('contains:');

/**
 * The expected category of each result, for the category breakdown:
 * 1. the row's expected_category as written (alternatives joined by " || ");
 * 2. else the category of the first matching answer in its own list (at `rank`);
 * 3. else the category seen anywhere in the run on an answer with the row's expected sequence number or label;
 * 4. else "(out of scope)" for expect=fallback rows and "(category unknown)" for the rest.
 * Step 3 needs the whole run: `add` every result first (a pass), then ask `keysOf` (a second pass).
 * Memory is one entry per distinct sequence number and label: the knowledge base, not the questions.
 */
export class CategoryIndex {
  private readonly bySequence = new Map<number, string>();
  private readonly byLabel = new Map<string, string>();

  add(r: QuestionResult): void {
    for (const a of r.answers) {
      if (a.category === undefined || a.category === '') continue;
      if (!this.bySequence.has(a.sequence_number)) this.bySequence.set(a.sequence_number, a.category);
      if (a.label !== undefined && !this.byLabel.has(normalizeText(a.label))) this.byLabel.set(normalizeText(a.label), a.category);
    }
  }

  readonly keysOf = (r: QuestionResult): string[] => {
    const e = r.expected;
    if (e.category) return [e.category.join(' || ')];
    if (r.rank != null) {
      const category = matchedAnswer(r)?.category;
      if (category) return [category];
    }
    for (const s of e.sequence ?? []) {
      const category = this.bySequence.get(Number(s));
      if (category) return [category];
    }
    for (const l of (e.label ?? []).filter(isPlain)) {
      const category = this.byLabel.get(normalizeText(l));
      if (category) return [category];
    }
    return [e.expect === 'fallback' ? OUT_OF_SCOPE : NO_CATEGORY];
  };
}

export function categoryKeys(results: Iterable<QuestionResult>): (r: QuestionResult) => string[] {
  const index = new CategoryIndex();
  for (const r of results) index.add(r);
  return index.keysOf;
}
