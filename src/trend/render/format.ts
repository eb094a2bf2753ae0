import type { Interval } from '../../model/metrics.js';
import { pct } from '../../report/describe.js';
import type { Trend, TrendRun } from '../schema.js';

/** A run in words: `2026-01-10` (short, for axes) or `#12 2026-01-10 02:17` (long). */
export function runLabel(run: TrendRun, form: 'short' | 'long', index?: number): string {
  const at = run.startedAt.replace('T', ' ');
  if (form === 'short') return at.slice(0, 10);
  return `${index !== undefined ? `#${index + 1} ` : ''}${at.slice(0, 16)}`;
}

/** A share with its interval: `85.0% (95% CI 80.1–89.2%, n=300)`. */
export const withInterval = (i: Interval): string =>
  i.value === null ? 'n/a' : i.low !== null && i.high !== null ? `${pct(i.value)} (95% CI ${pct(i.low)}–${pct(i.high)}, n=${i.n})` : pct(i.value);

/** The change of a share between two runs in percentage points: `+1.5 pts`. */
export function deltaPoints(a: number | null, b: number | null): string {
  if (a === null || b === null) return 'n/a';
  const d = (b - a) * 100;
  return `${d >= 0 ? '+' : ''}${d.toFixed(1)} pts`;
}

/** Real runs between a question's failing streak start and the latest, both counted (what-ifs are not history). */
export const streakRuns = (trend: Trend, since: number): number => trend.runs.slice(since).filter((r) => !r.rescored).length;

/** The runs that make the history: every run but the what-ifs (reports written by rescore) shown with --include-what-ifs. */
export const realRuns = (trend: Trend): TrendRun[] => trend.runs.filter((r) => !r.rescored);

/** `1 what-if left out`, `2 what-ifs shown apart`: what became of the reports written by rescore; empty when there were none. */
export function whatIfNote(trend: Trend): string {
  const w = trend.whatIfs;
  if (!w || w.runs.length === 0) return '';
  return `${w.runs.length} what-if${w.runs.length === 1 ? '' : 's'} ${w.included ? 'shown apart' : 'left out'}`;
}

