import { createHash } from 'node:crypto';
import { quarantineText } from '../../model/quarantine.js';
import type { Trend } from '../schema.js';

/** The last line of a trend's quarantine.txt: it tells the file trend wrote, unchanged since, from any other. */
const STAMP = '# written by answer-eval trend; sha256 of the lines above: ';
const STAMP_END = ' (trend writes over this file only while it is unchanged)\n';

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/**
 * Whether `text` is a quarantine.txt that trend wrote and nobody changed since (its last line holds the sha256 of
 * the lines above), which trend may write over; not one reviewed by hand, nor the one `run --repeat` writes. Pure.
 */
export function writtenByTrend(text: string): boolean {
  const at = text.lastIndexOf(STAMP);
  if (at <= 0 || text[at - 1] !== '\n') return false;
  return text.slice(at) === `${STAMP}${sha256(text.slice(0, at))}${STAMP_END}`;
}

/**
 * quarantine.txt of a trend: every flaky question of the latest run (its top-1 correctness flipped at least
 * --flaky-flips times with neither it nor the service changed), each with how often and over which runs; its last
 * line the stamp that tells it from a file trend must not write over (see writtenByTrend). Pure.
 */
export function* renderTrendQuarantine(trend: Trend): Generator<string> {
  const hash = createHash('sha256');
  for (const chunk of trendQuarantineLines(trend)) {
    hash.update(chunk);
    yield chunk;
  }
  yield `${STAMP}${hash.digest('hex')}${STAMP_END}`;
}

function* trendQuarantineLines(trend: Trend): Generator<string> {
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
