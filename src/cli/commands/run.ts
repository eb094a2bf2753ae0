import type { Argv } from 'yargs';
import { OUTPUTS, type Output } from '../../client/request.js';
import { redactUrl } from '../../client/url.js';
import { ConfigError } from '../../errors.js';
import { renderConsoleSummary } from '../../report/console.js';
import { parseFormats, writeReports } from '../../report/write.js';
import { readJournalHeader, type JournalHeader } from '../../run/journal.js';
import { RUN_DEFAULTS } from '../../run/options.js';
import { runEvaluation } from '../../run/run.js';
import { readAgentCode } from '../agent-code.js';
import { defineCommand } from '../command.js';
import { renderProgress } from '../progress.js';
import { onInterrupt } from '../signals.js';

// How a question is asked has no yargs default: a resumed run takes it from the journal unless given.
const builder = (y: Argv) =>
  y
    .option('dataset', { alias: 'd', type: 'string', describe: 'question set, .csv or .jsonl (with --resume: the journal\'s)' })
    .option('base-url', { type: 'string', describe: 'the Answer Service, e.g. https://www.wikifriend.net' })
    .option('agent', { type: 'string', describe: 'agent id (wikiagent); its code comes from ANSWER_AGENT_CODE' })
    .option('agent-code-file', { type: 'string', describe: 'read the agent code from this file instead of ANSWER_AGENT_CODE' })
    .option('concurrency', { alias: 'c', type: 'number', default: RUN_DEFAULTS.concurrency, describe: 'requests in flight at once' })
    .option('rps', { type: 'number', describe: 'requests per second for the whole run (default: no limit until a 429)' })
    .option('timeout', { type: 'number', default: RUN_DEFAULTS.timeoutMs, describe: 'per request, in ms' })
    .option('retries', { type: 'number', default: RUN_DEFAULTS.retries, describe: 'retries for network errors, timeouts, 429 and 5xx' })
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
    .option('max-response-bytes', { type: 'number', default: RUN_DEFAULTS.maxResponseBytes, describe: 'a larger body is a protocol error' })
    .option('out', { alias: 'o', type: 'string', describe: 'report and journal directory (default reports/<timestamp>)' })
    .option('format', { type: 'string', default: 'all', describe: 'reports to write, comma-separated' })
    .option('resume', { type: 'string', describe: 'continue the run journaled in this --out directory' })
    .option('rerun', { choices: ['errors'] as const, describe: 'with --resume: ask again the questions that ended in error' })
    .option('grace', { type: 'number', default: RUN_DEFAULTS.graceMs, describe: 'after SIGINT/SIGTERM, ms to wait for requests in flight' })
    .option('quiet', { alias: 'q', type: 'boolean', default: false, describe: 'no progress line on stderr' })
    .option('insecure', { type: 'boolean', default: false, describe: 'DANGER: do not verify TLS certificates (test servers only)' })
    .check((argv) => {
      for (const key of ['concurrency', 'timeout', 'max-response-bytes'] as const) {
        const v = argv[key];
        if (!Number.isInteger(v) || v < 1) throw new ConfigError(`--${key} must be a whole number >= 1, got ${v}`);
      }
      for (const key of ['retries', 'max-consecutive-errors', 'grace'] as const) {
        const v = argv[key];
        if (!Number.isInteger(v) || v < 0) throw new ConfigError(`--${key} must be a whole number >= 0, got ${v}`);
      }
      if (argv.rps !== undefined && !(argv.rps > 0)) throw new ConfigError(`--rps must be a number > 0, got ${argv.rps}`);
      if (argv.rerun !== undefined && argv.resume === undefined) throw new ConfigError('--rerun errors needs --resume DIR (it reruns the errors of an earlier run)');
      if (argv.resume !== undefined && argv.out !== undefined && argv.out !== argv.resume) {
        throw new ConfigError(`--out ${argv.out} and --resume ${argv.resume} differ: a resumed run writes into the directory it resumes`);
      }
      return true;
    });

export const runCommand = defineCommand({
  command: 'run',
  describe: 'ask every question of a dataset and write the reports',
  builder,
  handler: async (argv) => {
    const formats = parseFormats(argv.format);
    const prior: JournalHeader | undefined = argv.resume !== undefined ? await readJournalHeader(argv.resume) : undefined;
    const dataset = argv.dataset ?? prior?.dataset.path;
    const baseUrl = argv.baseUrl ?? prior?.request.baseUrl;
    const agent = argv.agent ?? prior?.request.agent;
    if (dataset === undefined) throw new ConfigError('--dataset is required (a .csv or .jsonl question set)');
    if (baseUrl === undefined) throw new ConfigError('--base-url is required (the URL of the Answer Service)');
    if (agent === undefined) throw new ConfigError('--agent is required with --base-url (the agent id, wikiagent)');
    const agentCode = await readAgentCode(argv.agentCodeFile);
    if (agentCode === undefined) throw new ConfigError('no agent code: set ANSWER_AGENT_CODE or --agent-code-file FILE');
    const username = argv.username ?? prior?.request.username ?? undefined;

    const dir = argv.resume ?? argv.out ?? defaultReportDir(new Date());
    if (argv.insecure) {
      process.stderr.write(
        `answer-eval: WARNING: --insecure: TLS certificates are NOT verified. Anyone on the path to ${redactUrl(baseUrl)} ` +
          'can read the agent code and forge answers. Use it only against a test server.\n',
      );
    }
    const progress = renderProgress(process.stderr, argv.quiet);
    const interrupt = onInterrupt(`continue with: answer-eval run --resume ${dir}`, argv.grace);
    const { report, stoppedBy } = await runEvaluation({
      dataset,
      baseUrl,
      agent,
      agentCode,
      concurrency: argv.concurrency,
      timeoutMs: argv.timeout,
      retries: argv.retries,
      language: argv.language ?? prior?.request.language ?? RUN_DEFAULTS.language,
      guest: argv.guest ?? prior?.request.guest ?? RUN_DEFAULTS.guest,
      forceSubscription: argv.forceSubscription ?? prior?.request.forceSubscription ?? RUN_DEFAULTS.forceSubscription,
      output: (argv.output ?? prior?.request.output ?? RUN_DEFAULTS.output) as Output,
      maxResponseBytes: argv.maxResponseBytes,
      maxConsecutiveErrors: argv.maxConsecutiveErrors,
      insecure: argv.insecure,
      graceMs: argv.grace,
      journalDir: dir,
      resume: argv.resume !== undefined,
      signal: interrupt.signal,
      onEvent: progress.onEvent,
      ...(argv.rerun !== undefined ? { rerun: argv.rerun } : {}),
      ...(argv.rps !== undefined ? { rps: argv.rps } : {}),
      ...(username !== undefined ? { username } : {}),
    }).finally(() => {
      progress.stop();
      interrupt.dispose();
    });
    const written = await writeReports(report, dir, formats);
    process.stdout.write(`${renderConsoleSummary(report)}\n  reports: ${written.join(', ')}\n`);
    if (stoppedBy) throw stoppedBy;
  },
});

const defaultReportDir = (at: Date): string => `reports/${at.toISOString().replace(/[:.]/g, '-').replace(/-\d{3}Z$/, 'Z')}`;
