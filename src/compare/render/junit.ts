import { join } from 'node:path';
import type { Standings } from '../standings.js';
import type { QuestionResult } from '../../model/report.js';
import type { ReportData } from '../../model/source.js';
import type { Verdict } from '../../model/verdict.js';
import { JUNIT_CLOSING, junitOpening, settle, testcaseOf, type Testcase } from '../../report/junit.js';
import { writeFiles } from '../../report/write.js';
import { TurnGroups } from '../../score/conversation.js';
import { withMetrics } from '../../score/metrics/index.js';
import { JsonLinesFile } from '../../util/json-lines-file.js';

/** The file `compare` writes HEAD's questions into as tests, judged against BASE. */
export const COMPARE_JUNIT_FILE = 'compare.junit.xml';

/** Testcases' XML joined into lines of about this many characters. */
const BATCH = 1 << 16;

/**
 * `compare`'s junit.xml: HEAD's questions and conversations as `run --baseline` writes them into its junit.xml (a
 * failure only when this change made it fail), with compare's gates in place of the run's own. Its own name, so a
 * run's junit.xml in HEAD's directory (compare's default --out) is never replaced.
 *
 * The testcases are rendered in the comparison's first pass over HEAD (`see`, in HEAD's order) into a file beside
 * the output, a failing one with its standing left open, since BASE is not read yet; `write` puts the totals first
 * and settles each failing testcase with its standing. So HEAD is not read once more for it, and memory does not
 * grow with the questions.
 */
export class CompareJunit {
  private readonly parts: JsonLinesFile<Testcase>;
  private readonly groups = new TurnGroups((item) => this.add(testcaseOf(item)));
  private batch: string[] = [];
  private batched = 0;

  constructor(dir: string) {
    this.parts = new JsonLinesFile(join(dir, `${COMPARE_JUNIT_FILE}.parts`));
  }

  /** HEAD's next result. */
  readonly see = (r: QuestionResult): void => this.groups.push(r);

  /** Writes compare.junit.xml into `dir` once the comparison is done (`standings` filled) and judged. */
  write(head: ReportData, verdict: Verdict | undefined, standings: Standings, dir: string): Promise<string[]> {
    this.groups.end();
    this.flush();
    const { gates: _, ...rest } = withMetrics(head).head;
    const report = verdict ? { ...rest, gates: verdict } : rest;
    const parts = this.parts;
    function* chunks(): Generator<string> {
      yield junitOpening(report, { baseline: standings });
      for (const t of parts) yield typeof t === 'string' ? t : `\n${settle(t, standings)}`;
      yield JUNIT_CLOSING;
    }
    return writeFiles(dir, [{ file: COMPARE_JUNIT_FILE, chunks }]);
  }

  /** Removes the rendered testcases (always, after `write` or instead of it). */
  discard(): void {
    this.parts.discard();
  }

  private add(t: Testcase | undefined): void {
    if (t === undefined) return;
    if (typeof t !== 'string') {
      this.flush();
      this.parts.add(t);
      return;
    }
    this.batch.push(`\n${t}`);
    this.batched += t.length + 1;
    if (this.batched >= BATCH) this.flush();
  }

  private flush(): void {
    if (this.batch.length > 0) this.parts.add(this.batch.join(''));
    this.batch = [];
    this.batched = 0;
  }
}
