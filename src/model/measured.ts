import { respondedCount } from './outcome.js';
import type { ReportHead } from './source.js';

/**
 * Why a completed run measured nothing, or undefined when it measured something: no question was asked (an
 * empty shard), or every question asked ended in error (the turns of a conversation after an error are not asked).
 * Such a run exits 3 whatever its gates say, so that a dead service never passes CI, even with the circuit breaker
 * off. Pure.
 */
export function nothingMeasured(head: Pick<ReportHead, 'summary' | 'run'>): string | undefined {
  const { summary: s, run } = head;
  if (s.total === 0) {
    const n = run.dataset.questions;
    const where = run.shard ? `shard ${run.shard.index}/${run.shard.count} holds none of the ${n} question${n === 1 ? '' : 's'} of ${run.dataset.path}; use fewer shards than questions` : `${run.dataset.path} has no question to ask`;
    return `nothing was measured: no question was asked (${where})`;
  }
  if (respondedCount(s.outcomes) === 0) {
    const errors = s.outcomes.error;
    const which = errors < s.total ? `every question asked (${errors})` : s.total === 1 ? 'the only question' : `every one of the ${s.total} questions`;
    const skipped = errors < s.total ? `, and the ${s.total - errors} turns after them in their conversations were not asked` : '';
    return `nothing was measured: ${which} ended in error${skipped} (see the error column of results.csv); check --base-url, the service and --timeout`;
  }
  return undefined;
}
