import type { Argv } from 'yargs';
import { OUTPUTS, type Output } from '../../client/request.js';
import { parseShard } from '../../dataset/shard.js';
import { ConfigError } from '../../errors.js';
import { renderConsoleSummary } from '../../report/console.js';
import { appendStepSummary } from '../../report/step-summary.js';
import { parseFormats, writeReports } from '../../report/write.js';
import { RUN_DEFAULTS } from '../../run/options.js';
import { runEvaluation } from '../../run/run.js';
import { openTarget } from '../../run/target.js';
import { SAMPLE_QUESTIONS } from '../../engine/index.js';
import { readAgentCode } from '../agent-code.js';
import { defineCommand } from '../command.js';

const builder = (y: Argv) =>
  y
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
    .check((argv) => {
      for (const key of ['concurrency', 'timeout', 'max-response-bytes'] as const) {
        const v = argv[key];
        if (!Number.isInteger(v) || v < 1) throw new ConfigError(`--${key} must be a whole number >= 1, got ${v}`);
      }
      if (!Number.isInteger(argv.retries) || argv.retries < 0) throw new ConfigError(`--retries must be a whole number >= 0, got ${argv.retries}`);
      return true;
    });

export const runCommand = defineCommand({
  command: 'run',
  describe: 'ask every question of a dataset and write the reports',
  builder,
  handler: async (argv) => {
    const formats = parseFormats(argv.format);
    if (argv.baseUrl !== undefined && argv.dataset === undefined) throw new ConfigError('--dataset is required with --base-url');
    const target = await openTarget({
      ...(argv.baseUrl !== undefined ? { baseUrl: argv.baseUrl, agentCode: await readAgentCode(argv.agentCodeFile) } : {}),
      ...(argv.agent !== undefined ? { agent: argv.agent } : {}),
      ...(argv.kb !== undefined ? { kb: argv.kb } : {}),
    });
    const { report, stoppedBy } = await runEvaluation({
      dataset: argv.dataset ?? SAMPLE_QUESTIONS,
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
    const written = await writeReports(report, dir, formats);
    const stepSummary = await appendStepSummary(report);
    if (stepSummary !== undefined) written.push(stepSummary);
    process.stdout.write(`${renderConsoleSummary(report)}\n  reports: ${written.join(', ')}\n`);
    if (stoppedBy) throw stoppedBy;
  },
});

const defaultReportDir = (at: Date): string => `reports/${at.toISOString().replace(/[:.]/g, '-').replace(/-\d{3}Z$/, 'Z')}`;
