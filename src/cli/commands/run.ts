import type { Argv } from 'yargs';
import { OUTPUTS, type Output } from '../../client/request.js';
import { parseShard } from '../../dataset/shard.js';
import { ConfigError } from '../../errors.js';
import { qualityGates } from '../../gate/gates.js';
import { checkGateArgs, gateOptions, qualityGatesOf, wantsRegressionGates } from '../../gate/options.js';
import { renderConsoleSummary } from '../../report/console.js';
import { appendStepSummary } from '../../report/step-summary.js';
import { fromReport } from '../../report/source.js';
import { parseFormats, writeReports } from '../../report/write.js';
import { RUN_DEFAULTS } from '../../run/options.js';
import { runEvaluation } from '../../run/run.js';
import { openTarget } from '../../run/target.js';
import { SAMPLE_QUESTIONS } from '../../engine/index.js';
import { readAgentCode } from '../agent-code.js';
import { baselineGates, checkBaseline, readBaseline } from '../baseline.js';
import { defineCommand } from '../command.js';
import { EXIT_CODES_HELP } from '../exit-codes.js';
import { enforceGates } from '../gates.js';

const builder = (y: Argv) =>
  gateOptions(y)
    .option('dataset', { alias: 'd', type: 'string', describe: 'question set, .csv or .jsonl (default: the sample set, with the embedded engine)' })
    .option('aliases', { type: 'string', describe: 'CSV of old,new sequence numbers applied to expected_sequence' })
    .option('base-url', { type: 'string', describe: 'the Answer Service, e.g. https://www.wikifriend.net (default: start the embedded engine)' })
    .option('kb', { type: 'string', describe: 'knowledge base for the embedded engine (default: the sample one)' })
    .option('agent', { type: 'string', describe: 'agent id (wikiagent); its code comes from ANSWER_AGENT_CODE' })
    .option('agent-code-file', { type: 'string', describe: 'read the agent code from this file instead of ANSWER_AGENT_CODE' })
    .option('concurrency', { alias: 'c', type: 'number', default: RUN_DEFAULTS.concurrency, describe: 'requests in flight at once' })
    .option('timeout', { type: 'number', default: RUN_DEFAULTS.timeoutMs, describe: 'per request, in ms' })
    .option('retries', { type: 'number', default: RUN_DEFAULTS.retries, describe: 'retries for network errors, timeouts, 429 and 5xx' })
    .option('language', { type: 'string', default: RUN_DEFAULTS.language, describe: 'ISO 639-1 code; a dataset row may override it' })
    .option('username', { type: 'string', describe: 'ask as this user' })
    .option('guest', { type: 'boolean', default: RUN_DEFAULTS.guest, describe: 'ask as a guest (--no-guest needs --username)' })
    .option('force-subscription', { type: 'boolean', default: RUN_DEFAULTS.forceSubscription })
    .option('output', { choices: OUTPUTS, default: RUN_DEFAULTS.output, describe: 'response format requested; only json is scored' })
    .option('max-response-bytes', { type: 'number', default: RUN_DEFAULTS.maxResponseBytes, describe: 'a larger body is a protocol error' })
    .option('shard', { type: 'string', describe: 'ask only shard i of n (e.g. 2/4), chosen by a hash of the id' })
    .option('out', { alias: 'o', type: 'string', describe: 'report directory (default reports/<timestamp>)' })
    .option('format', { type: 'string', default: 'all', describe: 'reports to write, comma-separated' })
    .option('baseline', { type: 'string', group: 'Gates:', describe: 'a report.json to compare this run with; writes compare.* beside the run\'s reports' })
    .option('force', { type: 'boolean', default: false, group: 'Gates:', describe: 'compare with --baseline even when its dataset sha256, agent or schemaVersion major differ' })
    .epilogue(
      'Gates are judged after every report is written; a failed gate exits 1 and says which gate failed and by how much. ' +
        'Quality gates judge this run; --fail-on and --max-broken need --baseline. Errors are never regressions: gate them with --max-error-rate. ' +
        `A run that could not complete exits 3 and is not gated.\n\n${EXIT_CODES_HELP}`,
    )
    .check(checkGateArgs)
    .check((argv) => {
      for (const key of ['concurrency', 'timeout', 'max-response-bytes'] as const) {
        const v = argv[key];
        if (!Number.isInteger(v) || v < 1) throw new ConfigError(`--${key} must be a whole number >= 1, got ${v}`);
      }
      if (!Number.isInteger(argv.retries) || argv.retries < 0) throw new ConfigError(`--retries must be a whole number >= 0, got ${argv.retries}`);
      if (wantsRegressionGates(argv) && argv.baseline === undefined) throw new ConfigError('--fail-on and --max-broken need --baseline FILE (a report.json to compare with)');
      return true;
    });

export const runCommand = defineCommand({
  command: 'run',
  describe: 'ask every question of a dataset and write the reports',
  builder,
  handler: async (argv) => {
    const formats = parseFormats(argv.format);
    if (argv.baseUrl !== undefined && argv.dataset === undefined) throw new ConfigError('--dataset is required with --base-url');
    const dataset = argv.dataset ?? SAMPLE_QUESTIONS;
    const baseline = argv.baseline === undefined ? undefined : await readBaseline(argv.baseline);
    const target = await openTarget({
      ...(argv.baseUrl !== undefined ? { baseUrl: argv.baseUrl, agentCode: await readAgentCode(argv.agentCodeFile) } : {}),
      ...(argv.agent !== undefined ? { agent: argv.agent } : {}),
      ...(argv.kb !== undefined ? { kb: argv.kb } : {}),
    });
    if (baseline) await checkBaseline(baseline, argv.baseline!, { dataset, agent: target.agent }, argv.force).catch(async (error: unknown) => {
      await target.close();
      throw error;
    });

    const { report, stoppedBy } = await runEvaluation({
      dataset,
      baseUrl: target.baseUrl,
      agent: target.agent,
      agentCode: target.agentCode,
      embeddedEngine: target.embedded,
      concurrency: argv.concurrency,
      timeoutMs: argv.timeout,
      retries: argv.retries,
      language: argv.language,
      guest: argv.guest,
      forceSubscription: argv.forceSubscription,
      output: argv.output as Output,
      maxResponseBytes: argv.maxResponseBytes,
      ...(argv.username !== undefined ? { username: argv.username } : {}),
      ...(argv.shard !== undefined ? { shard: parseShard(argv.shard) } : {}),
      ...(argv.aliases !== undefined ? { aliases: argv.aliases } : {}),
    }).finally(() => target.close());
    const dir = argv.out ?? defaultReportDir(new Date(report.run.startedAt));
    const written = await writeReports(fromReport(report), dir, formats);
    const stepSummary = await appendStepSummary(fromReport(report));
    if (stepSummary !== undefined) written.push(stepSummary);
    process.stdout.write(`${renderConsoleSummary(report)}\n  reports: ${written.join(', ')}\n`);
    if (stoppedBy) throw stoppedBy;
    const gates = qualityGates(report.summary, qualityGatesOf(argv));
    if (baseline) gates.push(...(await baselineGates(baseline, report, { baselineFile: argv.baseline!, dir, argv })));
    enforceGates(gates, (t) => process.stdout.write(t));
  },
});

const defaultReportDir = (at: Date): string => `reports/${at.toISOString().replace(/[:.]/g, '-').replace(/-\d{3}Z$/, 'Z')}`;
