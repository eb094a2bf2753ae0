import type { Summary } from '../report/schema.js';

/** fallback_missed / (questions expecting a fallback that got an answer without error); null when there are none. */
export function fallbackMissedRate(summary: Pick<Summary, 'outcomes'>): number | null {
  const { fallback_ok: ok, fallback_missed: missed } = summary.outcomes;
  return ok + missed === 0 ? null : missed / (ok + missed);
}
