import { firstEntries } from '../../report/coverage.js';
import type { Comparison, KbCoverageComparison } from '../schema.js';
import { pct, pts } from './format.js';

// The knowledge base's coverage, BASE to HEAD, in words: the same on the console, in compare.md and in compare.html.

/** The lists of a coverage comparison, with what each means. */
export const KB_LISTS = [
  ['lostLastTest', 'Lost their last test', 'tested in BASE, untested in HEAD'],
  ['newlyTested', 'Newly tested', 'untested in BASE (or not in its knowledge base), tested in HEAD'],
  ['addedUntested', 'Added without a test', "only HEAD's knowledge base has them, and no question tests them"],
] as const satisfies readonly [keyof KbCoverageComparison, string, string][];

/** `74.1% → 66.7% (−7.4 pts)`, or why one side has no figure. */
export function coverageChange(k: KbCoverageComparison, arrow = '→'): string {
  const missing = k.base === null ? 'BASE' : k.head === null ? 'HEAD' : undefined;
  const figures = `${pct(k.share.base)} ${arrow} ${pct(k.share.head)}`;
  if (missing !== undefined) return `${figures} (${missing} has no knowledge-base coverage: it was made without a knowledge base)`;
  return `${figures} (${pts(k.share.delta)}; ${k.head!.tested} of ${k.head!.entries} entries tested)`;
}

/** The console lines: the change, then each list that has entries (its first 10). */
export function kbCoverageConsoleLines(c: Comparison): string[] {
  const k = c.kbCoverage;
  if (!k) return [];
  const lines = [`  KB coverage ${coverageChange(k, '->')}`];
  for (const [key, title] of KB_LISTS) if (k[key].length > 0) lines.push(`  ${title.toLowerCase()} (${k[key].length}): ${firstEntries(k[key], 10)}`);
  return lines;
}
