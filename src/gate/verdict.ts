import type { Comparison } from '../compare/schema.js';
import type { ReportHead } from '../model/source.js';
import { verdictOf, type Verdict } from '../model/verdict.js';
import { qualityGates, regressionGates, type GateResult, type QualityGates, type RegressionGates } from './gates.js';

export { verdictOf } from '../model/verdict.js';

/**
 * Judges every gate that was set, before any report is written, so the reports can carry the verdict: the
 * quality gates on a summary (the run's, or HEAD's on `compare`), the regression gates on a comparison with a
 * baseline. Undefined when no gate was set. Pure.
 */
export function judge(
  summary: ReportHead['summary'],
  comparison: Comparison | undefined,
  gates: { quality: QualityGates; regression: RegressionGates },
  /** Gates judged elsewhere on the same report (e.g. --min-consistency), after the quality gates. */
  more: readonly GateResult[] = [],
): Verdict | undefined {
  return verdictOf([...qualityGates(summary, gates.quality), ...more, ...(comparison ? regressionGates(comparison, gates.regression) : [])]);
}

/** The report head with its verdict, placed after `run` so report.json shows it near the top. */
export function withVerdict<H extends ReportHead>(head: H, verdict: Verdict | undefined): H {
  if (verdict === undefined) return head;
  const { schemaVersion, tool, run, ...rest } = head;
  return { schemaVersion, tool, run, gates: verdict, ...rest } as H;
}

/** The comparison with the verdict of the command that made it, placed after `forced`. */
export function comparisonWithVerdict(c: Comparison, verdict: Verdict | undefined): Comparison {
  if (verdict === undefined) return c;
  const { schemaVersion, tool, base, head, forced, ...rest } = c;
  return { schemaVersion, tool, base, head, forced, gates: verdict, ...rest };
}
