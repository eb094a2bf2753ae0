import type { Confusion } from '../../model/metrics.js';
import type { QuestionResult } from '../../model/report.js';
import { EXPECTATION_KEYS_BY_PRECEDENCE } from '../../model/expectations.js';
import { OUTCOME_CLASSES } from '../../model/outcome.js';
import { knownEntry, top1 } from '../result.js';
import { truncate } from '../../util/text.js';

/** Expected side of a fallback_missed pair. */
export const EXPECTED_FALLBACK = '(fallback)';
export const MAX_CONFUSIONS = 50;
const MAX_EXAMPLES = 5;

/** The expected answer as the row gave it: the cell of its first field by precedence (label, sequence, text, ...). */
export function expectedKey(r: QuestionResult): string {
  const e = r.expected;
  if (e.expect === 'fallback') return EXPECTED_FALLBACK;
  const key = EXPECTATION_KEYS_BY_PRECEDENCE.find((k) => e[k] !== undefined);
  return key ? e[key]!.join(' || ') : '(any answer)';
}

/**
 * The (expected, got) pairs of wrong and fallback_missed results, most frequent first (then by expected, got);
 * `got` is the top-1's label, else its sequence number (a text answer whose entry is not known: its text, quoted). In-scope confusions and out-of-scope misses are kept
 * apart, so the misses (often the most frequent) never crowd out the confusions between entries. At most
 * MAX_CONFUSIONS pairs each, 5 example ids a pair. Memory is one record per distinct pair.
 */
export class ConfusionCounter {
  private readonly inScope = new Map<string, Confusion>();
  private readonly outOfScope = new Map<string, Confusion>();

  add(r: QuestionResult): void {
    if (!OUTCOME_CLASSES[r.outcome].confusion) return;
    const top = top1(r);
    if (top === undefined) return;
    const expected = expectedKey(r);
    const got = top.label !== undefined && top.label !== '' ? top.label : knownEntry(r, top) ? String(top.sequence_number) : `"${truncate(top.answer, 40)}"`;
    const pairs = expected === EXPECTED_FALLBACK ? this.outOfScope : this.inScope;
    const id = JSON.stringify([expected, got]);
    let pair = pairs.get(id);
    if (!pair) pairs.set(id, (pair = { expected, got, count: 0, examples: [] }));
    pair.count++;
    if (pair.examples.length < MAX_EXAMPLES) pair.examples.push(r.id);
  }

  result(): { confusions: Confusion[]; outOfScopeMisses: Confusion[] } {
    const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
    const sorted = (pairs: Map<string, Confusion>) =>
      [...pairs.values()].sort((a, b) => b.count - a.count || cmp(a.expected, b.expected) || cmp(a.got, b.got)).slice(0, MAX_CONFUSIONS);
    return { confusions: sorted(this.inScope), outOfScopeMisses: sorted(this.outOfScope) };
  }
}

export function confusions(results: Iterable<QuestionResult>): ReturnType<ConfusionCounter['result']> {
  const counter = new ConfusionCounter();
  for (const r of results) counter.add(r);
  return counter.result();
}
