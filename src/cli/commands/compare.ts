import { dirname } from 'node:path';
import type { Argv } from 'yargs';
import { withChangeFile } from '../../compare/changes.js';
import { compareData } from '../../compare/compare.js';
import { openPair } from '../../compare/load.js';
import { renderCompareConsole } from '../../compare/render/console.js';
import { Standings } from '../../compare/standings.js';
import { writeComparison } from '../../compare/write.js';
import { GateNotJudgedError, NothingMeasuredError } from '../../errors.js';
import { coverageGate, coverageUnjudged } from '../../gate/coverage.js';
import { nothingCompared, uncompared, unjudged } from '../../gate/gates.js';
import { compareSettingsOf, gateOptions, qualityGatesOf, regressionGatesOf } from '../../gate/options.js';
import { comparisonWithVerdict, judge } from '../../gate/verdict.js';
import { defineCommand } from '../command.js';
import { EXIT_CODES_HELP } from '../exit-codes.js';
import { reportFile } from '../../report/read.js';
import { ensureDir } from '../../util/out-dir.js';
import { enforceGates } from '../gates.js';
import { readQuarantine, unknownQuarantined } from '../quarantine.js';
import { CompareJunit } from '../compare-junit.js';
import { print, printError } from '../output.js';
import { pathOption } from '../../util/path-option.js';

const builder = (y: Argv) =>
  gateOptions(
    y
      .positional('base', { type: 'string', describe: 'the baseline report.json, or the directory a run wrote it to', demandOption: true })
      .positional('head', { type: 'string', describe: 'the new report.json, or the directory a run wrote it to', demandOption: true })
      .option('out', { alias: 'o', ...pathOption, describe: 'where compare.json, compare.html, compare.md, changes.jsonl and compare.junit.xml go (default: the directory of HEAD)' })
      .option('force', { type: 'boolean', default: false, describe: 'compare even when the schemaVersion major or the agent differ (another dataset is fine: questions are matched by id)' }),
  )
    .example('answer-eval compare main/report.json reports/pr-17 --fail-on regression', 'fail (exit 1) on any question broken since the baseline')
    .example('answer-eval compare reports/nightly/2026-11-24 reports/nightly/2026-11-25 --fail-on significant-regression', 'two nights: fail only on a significant drop')
    .epilogue(
      'Quality gates (--min-*, --max-error-rate, --max-fallback-missed-rate) are judged on HEAD; regression gates (--fail-on, --max-broken) on the comparison. ' +
        'Errors are never regressions: gate them with --max-error-rate. compare.junit.xml holds HEAD\'s questions as tests: a failure only when broken (or new, or edited), skipped when failing in BASE too or quarantined.' +
        `\n\n${EXIT_CODES_HELP}`,
    );

export const compareCommand = defineCommand({
  command: 'compare <base> <head>',
  describe: 'compare two report.json files question by question, with statistics, and apply gates',
  builder,
  handler: async (argv) => {
    const files = { base: argv.base, head: argv.head };
    const quarantine = argv.quarantine === undefined ? undefined : await readQuarantine(argv.quarantine);
    const { base, head } = await openPair(files.base, files.head, argv.force);
    const out = argv.out ?? dirname(await reportFile(argv.head));
    await ensureDir(out, '--out');
    const standings = new Standings(files.base);
    const junit = new CompareJunit(out);
    const { comparison, verdict, written } = await withChangeFile(out, async (changes) => {
      try {
        // every change goes to changes.jsonl as it is found; compare.json keeps the first of each class
        const options = { files, force: argv.force, ...compareSettingsOf(argv), ...(quarantine ? { quarantine } : {}) };
        const comparison = compareData(base, head, options, changes, standings, junit.see);
        // judged before writing, so compare.* carry the verdict
        const more = argv.minCoverage !== undefined ? [coverageGate(head.head.coverage, argv.minCoverage)] : [];
        const verdict = judge(head.head.summary, comparison, { quality: qualityGatesOf(argv), regression: regressionGatesOf(argv) }, more);
        const written = await writeComparison(comparisonWithVerdict(comparison, verdict), out, changes);
        written.push(...(await junit.write(head, verdict, standings, out)));
        return { comparison, verdict, written };
      } finally {
        junit.discard();
      }
    });
    for (const line of unknownQuarantined(comparison, quarantine)) printError(`${line}\n`);
    print(`${renderCompareConsole(comparison)}\n  reports: ${written.join(', ')}\n`);
    // a comparison without a question answered in both runs measured nothing: exit 3, gate or not (a gate on it fails);
    // so does a regression gate on a HEAD that did not measure questions BASE did (a shard, a partial run)
    const unjudgedBy = unjudged(comparison, regressionGatesOf(argv)) ?? coverageUnjudged(head.head.coverage, argv.minCoverage, `HEAD (${files.head})`);
    const unmeasured = nothingCompared(comparison)
      ? new NothingMeasuredError(`${uncompared(comparison) ?? 'nothing was compared'}; the reports are written`)
      : unjudgedBy !== undefined
        ? new GateNotJudgedError(`${unjudgedBy}; the reports are written`)
        : undefined;
    enforceGates(verdict, { unmeasured });
  },
});
