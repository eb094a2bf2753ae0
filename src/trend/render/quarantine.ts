import { quarantineText } from '../../model/quarantine.js';
import type { Trend } from '../schema.js';

/**
 * quarantine.txt of a trend: every flaky question of the latest run (its top-1 correctness flipped at least
 * --flaky-flips times with neither it nor the service changed), each with how often and over which runs. Pure.
 */
export function* renderTrendQuarantine(trend: Trend): Generator<string> {
  const first = trend.runs[0]?.startedAt ?? '?';
  const last = trend.runs[trend.runs.length - 1]?.startedAt ?? '?';
  const over = `${trend.runs.length} runs, ${first} to ${last}`;
  yield* quarantineText(
    [
      `answer-eval quarantine: the flaky questions of a trend of ${over} (top-1 correctness flipped at least ${trend.options.flakyFlips} times with neither the question nor the service changed)`,
      'Review it, keep it beside the baseline, and give it to --quarantine: a question here that breaks is "broke, but quarantined", not a regression.',
    ],
    trend.flaky.map((q) => ({ id: q.id, why: `flaky: top-1 correctness flipped ${q.flips} times over ${over}; ${q.correctNow === null ? 'not judged' : q.correctNow ? 'correct' : 'failing'} in the latest run` })),
  );
}
