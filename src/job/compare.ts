import { dirname } from 'node:path';
import { withChangeFile } from '../compare/changes.js';
import { compareData } from '../compare/compare.js';
import { openPair } from '../compare/load.js';
import { renderCompareConsole } from '../compare/render/console.js';
import { CompareJunit } from '../compare/render/junit.js';
import { Standings } from '../compare/standings.js';
import { writeComparison } from '../compare/write.js';
import { GateNotJudgedError, NothingMeasuredError } from '../errors.js';
import type { FailOn } from '../gate/gates.js';
import { coverageGate, coverageUnjudged } from '../gate/coverage.js';
import { nothingCompared, uncompared, unjudged } from '../gate/gates.js';
import { compareSettingsOf, qualityGatesOf, regressionGatesOf } from '../gate/options.js';
import { comparisonWithVerdict, judge } from '../gate/verdict.js';
import type { Verdict } from '../model/verdict.js';
import { reportFile } from '../report/read.js';
import { ensureDir } from '../util/out-dir.js';
import { enforceGates } from './gates.js';
import type { JobIo } from './io.js';
import { job, type JobResult } from './job.js';
import { readQuarantine, unknownQuarantined } from './quarantine.js';

export interface CompareOptions {
  /** The baseline report.json, or the directory a run wrote it to. */
  base: string;
  /** The new report.json, or its run's directory. */
  head: string;
  /** Where compare.json, .html, .md, changes.jsonl and compare.junit.xml go. @default HEAD's directory */
  out?: string | undefined;
  /** Compare even when the schemaVersion major or the agent differ. @default false */
  force?: boolean | undefined;
  minAccuracy?: number | undefined;
  minAnswerableAccuracy?: number | undefined;
  maxErrorRate?: number | undefined;
  maxFallbackMissedRate?: number | undefined;
  minCoverage?: number | undefined;
  failOn?: FailOn | undefined;
  alpha?: number | undefined;
  maxBroken?: number | undefined;
  quarantine?: string | undefined;
  scoreEpsilon?: number | undefined;
  resamples?: number | undefined;
  seed?: number | undefined;
}

export interface CompareJobResult extends JobResult {
  verdict?: Verdict | undefined;
}

/** `answer-eval compare`: two report.json files question by question, with statistics, and the gates judged. */
export function compare(o: CompareOptions, io?: JobIo): Promise<CompareJobResult> {
  const result: CompareJobResult = { exitCode: 0 };
  return job(io, result, async (ctx) => {
    const { print, printError } = ctx.out;
    const files = { base: o.base, head: o.head };
    const quarantine = o.quarantine === undefined ? undefined : await readQuarantine(o.quarantine);
    const { base, head } = await openPair(files.base, files.head, o.force ?? false);
    const out = o.out ?? dirname(await reportFile(o.head));
    await ensureDir(out, '--out');
    const standings = new Standings(files.base);
    const junit = new CompareJunit(out);
    const { comparison, verdict, written } = await withChangeFile(out, async (changes) => {
      try {
        // every change goes to changes.jsonl as it is found; compare.json keeps the first of each class
        const options = { files, force: o.force ?? false, ...compareSettingsOf(o), ...(quarantine ? { quarantine } : {}) };
        const comparison = compareData(base, head, options, changes, standings, junit.see);
        // judged before writing, so compare.* carry the verdict
        const more = o.minCoverage !== undefined ? [coverageGate(head.head.coverage, o.minCoverage)] : [];
        const verdict = judge(head.head.summary, comparison, { quality: qualityGatesOf(o), regression: regressionGatesOf(o) }, more);
        const written = await writeComparison(comparisonWithVerdict(comparison, verdict), out, changes);
        written.push(...(await junit.write(head, verdict, standings, out)));
        return { comparison, verdict, written };
      } finally {
        junit.discard();
      }
    });
    result.verdict = verdict;
    for (const line of unknownQuarantined(comparison, quarantine)) printError(`${line}\n`);
    print(`${renderCompareConsole(comparison)}\n  reports: ${written.join(', ')}\n`);
    // a comparison without a question answered in both runs measured nothing: exit 3, gate or not (a gate on it fails);
    // so does a regression gate on a HEAD that did not measure questions BASE did (a shard, a partial run)
    const unjudgedBy = unjudged(comparison, regressionGatesOf(o)) ?? coverageUnjudged(head.head.coverage, o.minCoverage, `HEAD (${files.head})`);
    const unmeasured = nothingCompared(comparison)
      ? new NothingMeasuredError(`${uncompared(comparison) ?? 'nothing was compared'}; the reports are written`)
      : unjudgedBy !== undefined
        ? new GateNotJudgedError(`${unjudgedBy}; the reports are written`)
        : undefined;
    enforceGates(ctx, verdict, { unmeasured });
  });
}
