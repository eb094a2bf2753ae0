import { respondedCount } from './outcome.js';
import type { ReportHead } from './source.js';

/**
 * Why a completed run measured nothing, or too little to be judged, or undefined when it measured enough: no question
 * was asked (an empty shard), every question asked ended in error (the turns of a conversation after an error are
 * not asked), or, unless an error-rate gate was set (--max-error-rate: the user said how many errors to accept), more
 * than half of them did, when the figures would rest on the few the service answered between its failures (the
 * circuit breaker trips only on errors in a row). Such a run exits 3 whatever its gates say, so that a dead or mostly
 * dead service never passes CI. Pure.
 */
export function nothingMeasured(head: Pick<ReportHead, 'summary' | 'run'>, o: { errorRateGated?: boolean } = {}): string | undefined {
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
  const failed = s.total - respondedCount(s.outcomes);
  if (!o.errorRateGated && failed * 2 > s.total) {
    return (
      `too little was measured: ${failed} of the ${s.total} questions (${((failed / s.total) * 100).toFixed(1)}%) ended in error, more than half, ` +
      `so the figures rest on the ${s.total - failed} the service answered (see the error column of results.csv); once the service answers, ` +
      `continue with run --resume DIR --rerun errors, or set --max-error-rate to judge such a run by its gates`
    );
  }
  return undefined;
}
