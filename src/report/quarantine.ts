import { quarantineText } from '../model/quarantine.js';
import type { QuestionResult } from '../model/report.js';
import type { ReportData } from '../model/source.js';

/** The top-1 sequence number of each asking, first one first: `#12 → #14 → #12` (— for an empty list, error for none). */
function askings(r: QuestionResult): string {
  const first = r.top1Index === null ? null : (r.answers[r.top1Index]?.sequence_number ?? null);
  const others = (r.repeats?.others ?? []).map((o) => (o.error ? 'error' : o.sequence === null ? '—' : `#${o.sequence}`));
  return [r.outcome === 'error' ? 'error' : first === null ? '—' : `#${first}`, ...others].join(' → ');
}

function* inconsistent(results: Iterable<QuestionResult>, when: string): Generator<{ id: string; why: string }> {
  for (const r of results) if (r.repeats?.consistent === false) yield { id: r.id, why: `top-1 not the same every time it was asked (${askings(r)}), run of ${when}` };
}

/**
 * quarantine.txt of a `run --repeat N` run: every question whose top-1 was not the same across its askings, each with
 * the top-1 of every asking and the run it was seen in. One pass over the results. Pure.
 */
export function* renderRepeatQuarantine({ head, results }: ReportData): Generator<string> {
  const times = head.run.repeat?.times ?? 1;
  yield* quarantineText(
    [
      `answer-eval quarantine: the questions whose top-1 was not the same every time they were asked (run --repeat ${times} of ${head.run.startedAt}, ${head.run.dataset.path})`,
      'Review it, keep it beside the baseline, and give it to --quarantine: a question here that breaks is "broke, but quarantined", not a regression.',
    ],
    inconsistent(results, head.run.startedAt),
  );
}
