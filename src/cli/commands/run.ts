import type { Argv } from 'yargs';
import { OUTPUTS } from '../../client/request.js';
import { redactUrl } from '../../client/url.js';
import { parseShard } from '../../dataset/shard.js';
import { SAMPLE_QUESTIONS } from '../../engine/index.js';
import { ConfigError } from '../../errors.js';
import { consistencyGate } from '../../gate/consistency.js';
import { qualityGates } from '../../gate/gates.js';
import { checkGateArgs, gateOptions, qualityGatesOf, wantsRegressionGates } from '../../gate/options.js';
import { renderConsoleSummary } from '../../report/console.js';
import { appendStepSummary } from '../../report/step-summary.js';
import { parseFormats, writeReports } from '../../report/write.js';
import { readJournalHeader } from '../../run/journal.js';
import { RUN_DEFAULTS } from '../../run/options.js';
import { runEvaluation } from '../../run/run.js';
import { openTarget } from '../../run/target.js';
import { readAgentCode } from '../agent-code.js';
import { baselineGates, checkBaseline, readBaseline } from '../baseline.js';
import { defineCommand } from '../command.js';
import { EXIT_CODES_HELP } from '../exit-codes.js';
import { enforceGates } from '../gates.js';
import { renderProgress } from '../progress.js';
import { onInterrupt } from '../signals.js';

// How a question is asked has no yargs default: a resumed run takes it from the journal unless given.
const builder = (y: Argv) =>
  gateOptions(y)
    .option('dataset', { alias: 'd', type: 'string', describe: "question set, .csv or .jsonl (default: the sample set with the embedded engine; with --resume: the journal's)" })
    .option('aliases', { type: 'string', describe: 'CSV of old,new sequence numbers applied to expected_sequence' })
    .option('base-url', { type: 'string', describe: 'the Answer Service, e.g. https://www.wikifriend.net (default: start the embedded engine)' })
    .option('kb', { type: 'string', describe: 'knowledge base for the embedded engine (default: the sample one)' })
    .option('agent', { type: 'string', describe: 'agent id (wikiagent); its code comes from ANSWER_AGENT_CODE' })
    .option('agent-code-file', { type: 'string', describe: 'read the agent code from this file instead of ANSWER_AGENT_CODE' })
    .option('concurrency', { alias: 'c', type: 'number', default: RUN_DEFAULTS.concurrency, describe: 'requests in flight at once' })
    .option('rps', { type: 'number', describe: 'requests per second for the whole run (default: no limit until a 429)' })
    .option('timeout', { type: 'number', describe: `per request, in ms [default: ${RUN_DEFAULTS.timeoutMs}]` })
    .option('retries', { type: 'number', describe: `retries for network errors, timeouts, 429 and 5xx [default: ${RUN_DEFAULTS.retries}]` })
    .option('max-consecutive-errors', {
      type: 'number',
      default: RUN_DEFAULTS.maxConsecutiveErrors,
      describe: 'stop the run (exit 3) after this many questions in a row end in error; 0 never stops',
    })
    .option('language', { type: 'string', describe: `ISO 639-1 code; a dataset row may override it [default: ${RUN_DEFAULTS.language}]` })
    .option('username', { type: 'string', describe: 'ask as this user' })
    .option('guest', { type: 'boolean', describe: 'ask as a guest (--no-guest needs --username) [default: true]' })
    .option('force-subscription', { type: 'boolean', describe: '[default: false]' })
    .option('output', { choices: OUTPUTS, describe: 'response format requested; only json is scored [default: json]' })
    .option('max-response-bytes', { type: 'number', describe: `a larger body is a protocol error [default: ${RUN_DEFAULTS.maxResponseBytes}]` })
    .option('repeat', { type: 'number', describe: 'ask every question N times, spread over the run; scored on the first answer, the others say whether the top-1 stays the same [default: 1]' })
    .option('min-consistency', { type: 'number', group: 'Gates:', describe: 'with --repeat: fail when the share of questions with one top-1 across their askings is below this (0..1)' })
    .option('shard', { type: 'string', describe: 'ask only shard i of n (e.g. 2/4), chosen by a hash of the id' })
    .option('out', { alias: 'o', type: 'string', describe: 'report and journal directory (default reports/<timestamp>)' })
    .option('format', { type: 'string', default: 'all', describe: 'reports to write, comma-separated' })
    .option('resume', { type: 'string', describe: 'continue the run journaled in this --out directory' })
    .option('rerun', { choices: ['errors'] as const, describe: 'with --resume: ask again the questions that ended in error' })
    .option('grace', { type: 'number', default: RUN_DEFAULTS.graceMs, describe: 'after SIGINT/SIGTERM, ms to wait for requests in flight' })
    .option('quiet', { alias: 'q', type: 'boolean', default: false, describe: 'no progress line on stderr' })
    .option('insecure', { type: 'boolean', default: false, describe: 'DANGER: do not verify TLS certificates (test servers only)' })
    .option('baseline', { type: 'string', group: 'Gates:', describe: "a report.json to compare this run with; writes compare.* beside the run's reports" })
    .option('force', { type: 'boolean', default: false, group: 'Gates:', describe: 'compare with --baseline even when its dataset sha256, agent or schemaVersion major differ' })
    .epilogue(
      'Gates are judged after every report is written; a failed gate exits 1 and says which gate failed and by how much. ' +
        'Quality gates judge this run; --fail-on and --max-broken need --baseline. Errors are never regressions: gate them with --max-error-rate. ' +
        `A run that could not complete exits 3 and is not gated.\n\n${EXIT_CODES_HELP}`,
    )
    .check(checkGateArgs)
    .check((argv) => {
      for (const key of ['concurrency', 'timeout', 'max-response-bytes', 'repeat'] as const) {
        const v = argv[key];
        if (v !== undefined && (!Number.isInteger(v) || v < 1)) throw new ConfigError(`--${key} must be a whole number >= 1, got ${v}`);
      }
      for (const key of ['retries', 'max-consecutive-errors', 'grace'] as const) {
        const v = argv[key];
        if (v !== undefined && (!Number.isInteger(v) || v < 0)) throw new ConfigError(`--${key} must be a whole number >= 0, got ${v}`);
      }
      const minConsistency = argv['min-consistency'];
      if (minConsistency !== undefined && !(minConsistency >= 0 && minConsistency <= 1)) throw new ConfigError(`--min-consistency must be a share between 0 and 1, got ${minConsistency}`);
      if (minConsistency !== undefined && argv.resume === undefined && !((argv.repeat ?? 1) > 1)) throw new ConfigError('--min-consistency needs --repeat N with N >= 2 (it judges whether repeated askings get the same top-1)');
      if (argv.rps !== undefined && !(argv.rps > 0)) throw new ConfigError(`--rps must be a number > 0, got ${argv.rps}`);
      if (argv.rerun !== undefined && argv.resume === undefined) throw new ConfigError('--rerun errors needs --resume DIR (it reruns the errors of an earlier run)');
      if (argv.resume !== undefined && argv.out !== undefined && argv.out !== argv.resume) {
        throw new ConfigError(`--out ${argv.out} and --resume ${argv.resume} differ: a resumed run writes into the directory it resumes`);
      }
      if (wantsRegressionGates(argv) && argv.baseline === undefined) throw new ConfigError('--fail-on and --max-broken need --baseline FILE (a report.json to compare with)');
      return true;
    });

export const runCommand = defineCommand({
  command: 'run',
  describe: 'ask every question of a dataset and write the reports',
  builder,
  handler: async (argv) => {
    const formats = parseFormats(argv.format);
    // where to send is decided here (it may start the embedded engine); every other option a resumed run
    // does not repeat defaults to its journal's inside runEvaluation
    const prior = argv.resume !== undefined ? await readJournalHeader(argv.resume) : undefined;
    const baseUrl = argv.baseUrl ?? prior?.request.baseUrl;
    const agent = argv.agent ?? prior?.request.agent;
    if (prior === undefined && baseUrl !== undefined && argv.dataset === undefined) throw new ConfigError('--dataset is required with --base-url (a .csv or .jsonl question set)');
    const dataset = argv.dataset ?? (prior === undefined && baseUrl === undefined ? SAMPLE_QUESTIONS : undefined);
    const baseline = argv.baseline === undefined ? undefined : await readBaseline(argv.baseline);
    const target = await openTarget({
      ...(baseUrl !== undefined ? { baseUrl, agentCode: await readAgentCode(argv.agentCodeFile) } : {}),
      ...(agent !== undefined ? { agent } : {}),
      ...(argv.kb !== undefined ? { kb: argv.kb } : {}),
    });
    const dir = argv.resume ?? argv.out ?? defaultReportDir(new Date());
    if (argv.insecure) {
      process.stderr.write(
        `answer-eval: WARNING: --insecure: TLS certificates are NOT verified. Anyone on the path to ${redactUrl(target.baseUrl)} ` +
          'can read the agent code and forge answers. Use it only against a test server.\n',
      );
    }
    const progress = renderProgress(process.stderr, argv.quiet);
    const interrupt = onInterrupt(`continue with: answer-eval run --resume ${dir}`, argv.grace);
    const outcome = await (async () => {
      if (baseline) await checkBaseline(baseline, argv.baseline!, { dataset: dataset ?? prior!.dataset.path, agent: target.agent }, argv.force);
      return runEvaluation({
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
        output: argv.output,
        maxResponseBytes: argv.maxResponseBytes,
        maxConsecutiveErrors: argv.maxConsecutiveErrors,
        insecure: argv.insecure,
        graceMs: argv.grace,
        journalDir: dir,
        resume: argv.resume !== undefined,
        signal: interrupt.signal,
        onEvent: progress.onEvent,
        rerun: argv.rerun,
        rps: argv.rps,
        username: argv.username,
        shard: argv.shard === undefined ? undefined : parseShard(argv.shard),
        aliases: argv.aliases,
        repeat: argv.repeat,
      });
    })().finally(async () => {
      progress.stop();
      interrupt.dispose();
      await target.close();
    });
    const { data, stoppedBy } = outcome;
    const written = await writeReports(data, dir, formats);
    const stepSummary = await appendStepSummary(data);
    if (stepSummary !== undefined) written.push(stepSummary);
    process.stdout.write(`${renderConsoleSummary(data.head)}\n  reports: ${written.join(', ')}\n`);
    if (stoppedBy) throw stoppedBy;
    const gates = qualityGates(data.head.summary, qualityGatesOf(argv));
    if (argv.minConsistency !== undefined) gates.push(consistencyGate(data.head.metrics?.consistency, argv.minConsistency));
    // comparing holds both reports in memory
    if (baseline) gates.push(...(await baselineGates(baseline, outcome.report, { baselineFile: argv.baseline!, dir, argv })));
    enforceGates(gates, (t) => process.stdout.write(t));
  },
});

const defaultReportDir = (at: Date): string => `reports/${at.toISOString().replace(/[:.]/g, '-').replace(/-\d{3}Z$/, 'Z')}`;
