import type { Standings } from '../compare/standings.js';
import type { ReportData } from '../model/source.js';
import type { Verdict } from '../model/verdict.js';
import { renderJunit } from '../report/junit.js';
import { writeFiles } from '../report/write.js';
import { withMetrics } from '../score/metrics/index.js';

/** The file `compare` writes HEAD's questions into as tests, judged against BASE. */
export const COMPARE_JUNIT_FILE = 'compare.junit.xml';

/**
 * `compare`'s junit.xml: HEAD's questions and conversations as `run --baseline` writes them into its junit.xml (a
 * failure only when this change made it fail), with compare's gates in place of the run's own. Its own name, so a
 * run's junit.xml in HEAD's directory (compare's default --out) is never replaced.
 */
export function writeCompareJunit(head: ReportData, verdict: Verdict | undefined, standings: Standings, dir: string): Promise<string[]> {
  const { gates: _, ...rest } = head.head;
  const data = withMetrics({ head: verdict ? { ...rest, gates: verdict } : rest, results: head.results });
  return writeFiles(dir, [{ file: COMPARE_JUNIT_FILE, chunks: () => renderJunit(data, { baseline: standings }) }]);
}
