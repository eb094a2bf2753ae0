import { stat } from 'node:fs/promises';
import type { Argv } from 'yargs';
import { OUTPUTS } from '../../client/request.js';
import { hasUrlSecrets, redactUrl } from '../../client/url.js';
import { parseShard } from '../../dataset/shard.js';
import { openDataset } from '../../dataset/source.js';
import { keepRunOptions, resumeRunOptions } from '../run-options.js';
import { SAMPLE_QUESTIONS, type KnowledgeBase } from '../../engine/index.js';
import { ConfigError, formatProblem, type InputProblem } from '../../errors.js';
import { gateOptions, wantsRegressionGates } from '../../gate/options.js';
import { parseFormats } from '../../report/write.js';
import { readJournalHeader } from '../../run/journal-read.js';
import { RUN_DEFAULTS } from '../../run/options.js';
import { runEvaluation } from '../../run/run.js';
import { journaledBaseUrl } from '../../run/resume.js';
import { openTarget } from '../../run/target.js';
import { readAgentCode } from '../agent-code.js';
import { MAX_RESPONSE_BYTES } from '../../util/json-lines.js';
import { MILLISECONDS, MILLISECONDS_0, numberOption, RATE, SCORE, SHARE, WHOLE_AT_LEAST_0, WHOLE_AT_LEAST_1, type NumberRule } from '../../util/numbers.js';
import { checkBaseline, readBaseline } from '../baseline.js';
import { defineCommand } from '../command.js';
import { EXIT_CODES_HELP } from '../exit-codes.js';
import { finishRun } from '../finish.js';
import { renderProgress } from '../progress.js';
import { claimRunDir, locateResume, placeRun } from '../run-dir.js';
import { readQuarantine } from '../quarantine.js';
import { thresholdOptions, thresholdOptionsOf } from '../threshold-options.js';
import { onInterrupt } from '../signals.js';
import { printError } from '../output.js';
import { oneLine } from '../../util/terminal.js';
import { pathOption } from '../../util/path-option.js';

/** A reply's size limit: up to MAX_RESPONSE_BYTES, so that its result fits a journal line answer-eval reads back. */
const RESPONSE_BYTES: NumberRule = { says: `a whole number from 1 to ${MAX_RESPONSE_BYTES} (32 MiB)`, accepts: (n) => Number.isInteger(n) && n >= 1 && n <= MAX_RESPONSE_BYTES, bounds: { integer: true, minimum: 1, maximum: MAX_RESPONSE_BYTES } };

// How a question is asked has no yargs default: a resumed run takes it from the journal unless given.
const builder = (y: Argv) =>
  thresholdOptions(gateOptions(y))
    .option('dataset', { alias: 'd', ...pathOption, describe: "question set, .csv or .jsonl (default: the sample set with the embedded engine; with --resume: the journal's)" })
    .option('encoding', { type: 'string', describe: 'the dataset\'s encoding when it is not UTF-8: latin1, windows-1252, utf-16le, ... (default: UTF-8, or UTF-16 by its BOM)' })
    .option('aliases', { ...pathOption, describe: 'CSV of old,new sequence numbers applied to expected_sequence' })
    .option('base-url', { type: 'string', describe: 'the Answer Service, e.g. https://www.wikifriend.net (default: start the embedded engine)' })
    .option('kb', { ...pathOption, describe: "knowledge base: served by the embedded engine (default: the sample one; with --resume: the journal's); with --base-url, the one beside the service, for entry texts and categories" })
    .option('floor', { ...numberOption('floor', SCORE), describe: 'the embedded engine\'s floor threshold, 0-100 (below it the reply is the floor answer) [default: 50]' })
    .option('suggestion-threshold', { ...numberOption('suggestion-threshold', SCORE), describe: 'the embedded engine\'s suggestion threshold, 0-100 [default: 50]' })
    .option('agent', { type: 'string', describe: 'agent id (wikiagent); its code comes from ANSWER_AGENT_CODE' })
    .option('agent-code-file', { ...pathOption, describe: 'read the agent code from this file instead of ANSWER_AGENT_CODE' })
    .option('concurrency', { alias: 'c', ...numberOption('concurrency', WHOLE_AT_LEAST_1), default: RUN_DEFAULTS.concurrency, describe: 'requests in flight at once' })
    .option('rps', { ...numberOption('rps', RATE), describe: 'requests per second for the whole run (default: no limit until a 429)' })
    .option('timeout', { ...numberOption('timeout', MILLISECONDS), describe: `per request, in ms [default: ${RUN_DEFAULTS.timeoutMs}]` })
    .option('retries', {
      ...numberOption('retries', WHOLE_AT_LEAST_0),
      describe: `retries for network errors, timeouts, 429 and 5xx (a turn of a conversation: only a request that cannot have reached the service) [default: ${RUN_DEFAULTS.retries}]`,
    })
    .option('pause-on-429', {
      type: 'boolean',
      default: RUN_DEFAULTS.pauseOn429,
      describe: "a 429 (or a 503 with Retry-After) pauses every request for its Retry-After; by default only the retried one waits, and the rate is lowered",
    })
    .option('max-consecutive-errors', {
      ...numberOption('max-consecutive-errors', WHOLE_AT_LEAST_0),
      default: RUN_DEFAULTS.maxConsecutiveErrors,
      describe: 'stop the run (exit 3) after this many questions in a row end in error; 0 never stops',
    })
    .option('language', { type: 'string', describe: `ISO 639-1 code (a region form such as en-US is sent as en); a dataset row may override it [default: ${RUN_DEFAULTS.language}]` })
    .option('username', { type: 'string', describe: 'ask the single questions as this user (a conversation is asked as its own user)' })
    .option('guest', { type: 'boolean', describe: 'ask the single questions as a guest (--no-guest needs --username; a conversation never is) [default: true]' })
    .option('force-subscription', { type: 'boolean', describe: 'force_subscription "1"; a row\'s force_subscription overrides it [default: false]' })
    .option('ask-for-metadata', { type: 'boolean', describe: 'send question.ask_for_metadata "1" (--no-ask-for-metadata: "0"); a row\'s ask_for_metadata overrides it [default: not sent]' })
    .option('using-repeating-answers', { type: 'boolean', describe: 'send question.using_repeating_answers "1" (--no-...: "0"); a row\'s using_repeating_answers overrides it [default: not sent]' })
    .option('output', { choices: OUTPUTS, describe: 'response format requested, and scored: json, xml, html or text (text is judged by answer text; with the knowledge base, by entry too); a row\'s output overrides it [default: json]' })
    .option('max-response-bytes', { ...numberOption('max-response-bytes', RESPONSE_BYTES), describe: `a larger body is a protocol error (at most ${MAX_RESPONSE_BYTES}) [default: ${RUN_DEFAULTS.maxResponseBytes}]` })
    .option('shard', { type: 'string', describe: 'ask only shard i of n (e.g. 2/4), chosen by a hash of the id; auto: from the CI or Kubernetes environment' })
    .option('repeat', { ...numberOption('repeat', WHOLE_AT_LEAST_1), describe: 'ask every question N times, spread over the run; scored on the first answer, the others say whether the top-1 stays the same [default: 1]' })
    .option('min-consistency', { ...numberOption('min-consistency', SHARE), group: 'Gates:', describe: 'with --repeat: fail when the share of questions with one top-1 across their askings is below this (0..1)' })
    .option('max-turn-delay', {
      ...numberOption('max-turn-delay', MILLISECONDS_0),
      describe: `conversations: the longest wait, in ms, after a turn whose answer asks for a delay (the service gives it in seconds) [default: ${RUN_DEFAULTS.maxTurnDelayMs}]`,
    })
    .option('min-conversation-pass-rate', {
      ...numberOption('min-conversation-pass-rate', SHARE),
      group: 'Gates:',
      describe: 'fail when the share of conversations whose every turn passed (those in error apart) is below this (0..1)',
    })
    .option('out', { alias: 'o', ...pathOption, describe: 'report and journal directory (default reports/<timestamp>)' })
    .option('format', { type: 'string', default: 'all', describe: 'reports to write, comma-separated' })
    .option('resume', { ...pathOption, describe: 'continue the run journaled in this --out directory (or its unfinished --overwrite run)' })
    .option('overwrite', {
      type: 'boolean',
      default: false,
      describe: 'replace the run --out holds; it stays as it is until this run completes (without it, a directory holding a run is refused)',
    })
    .option('rerun', { choices: ['errors'] as const, describe: 'with --resume: ask again the questions that ended in error' })
    .option('grace', { ...numberOption('grace', MILLISECONDS_0), default: RUN_DEFAULTS.graceMs, describe: 'after SIGINT/SIGTERM, ms to wait for requests in flight' })
    .option('quiet', { alias: 'q', type: 'boolean', default: false, describe: 'no progress line on stderr' })
    .option('insecure', { type: 'boolean', default: false, describe: 'DANGER: do not verify TLS certificates (test servers only)' })
    .option('baseline', { ...pathOption, group: 'Gates:', describe: "a report.json (or the directory a run wrote it to) to compare this run with; writes compare.* beside the run's reports" })
    .option('force', { type: 'boolean', default: false, group: 'Gates:', describe: 'compare with --baseline even when its agent or schemaVersion major differ (another dataset is fine: questions are matched by id)' })
    .example('answer-eval run', "the sample questions against the embedded engine (in a directory holding answer-eval.config.json: its run options)")
    .example('answer-eval run -d faq.csv --base-url https://answers.example.com --agent support', 'a question set against a service; the agent code comes from ANSWER_AGENT_CODE')
    .example('answer-eval run -d faq.csv --baseline main/report.json --fail-on regression', 'the pull-request gate: exit 1 when a question that passed on main fails')
    .example('answer-eval run --profile nightly', "the run options of answer-eval.config.json with its nightly profile laid over them")
    .example('answer-eval run --resume reports/2026-11-25T02-00-00Z', 'finish an interrupted run as it was started')
    .epilogue(
      'Gates are judged before the reports are written, so every report carries the verdict; a failed gate exits 1 and says which gate failed and by how much. ' +
        'Quality gates judge this run; --fail-on, --max-broken and --quarantine need --baseline; on a pull request, --fail-on regression fails on any broken question (significant-regression cannot fail on a few). Errors are never regressions: gate them with --max-error-rate. ' +
        'A run that could not complete, or in which every question ended in error (or more than half, without --max-error-rate), exits 3 and is not gated. ' +
        `An interrupted embedded run resumes with --resume DIR alone: the engine restarts on the same knowledge base and options.\n\n${EXIT_CODES_HELP}`,
    )
    .check((argv) => {
      const minConsistency = argv['min-consistency'];
      if (minConsistency !== undefined && argv.resume === undefined && !((argv.repeat ?? 1) > 1)) throw new ConfigError('--min-consistency needs --repeat N with N >= 2 (it judges whether repeated askings get the same top-1)');
      if (argv.rerun !== undefined && argv.resume === undefined) throw new ConfigError('--rerun errors needs --resume DIR (it reruns the errors of an earlier run)');
      if (argv.overwrite && argv.resume !== undefined) throw new ConfigError('--overwrite starts a new run in place of the one --out holds; --resume continues a run: give one of them');
      if (argv.resume !== undefined && argv.out !== undefined && argv.out !== argv.resume) {
        throw new ConfigError(`--out ${argv.out} and --resume ${argv.resume} differ: a resumed run writes into the directory it resumes`);
      }
      for (const flag of ['agent', 'username'] as const) {
        if (argv[flag] !== undefined && argv[flag].trim() === '') throw new ConfigError(`--${flag} is empty (expected ${flag === 'agent' ? 'the agent id, wikiagent' : 'the user the questions are asked as'})`);
      }
      if (wantsRegressionGates(argv) && argv.baseline === undefined) throw new ConfigError('--fail-on, --max-broken and --quarantine need --baseline FILE (a report.json to compare with)');
      return true;
    });

export const runCommand = defineCommand({
  command: 'run',
  describe: 'ask every question of a dataset and write the reports',
  builder,
  handler: async (argv) => {
    // the run --resume continues: the one in DIR, or DIR's unfinished --overwrite run (journaled beside it until it completes)
    const resumed = argv.resume === undefined ? undefined : await locateResume(argv.resume);
    // a resumed run is finished as it was meant to be: its gates, --baseline and --format, unless given again
    const taken = resumed === undefined ? [] : resumeRunOptions(resumed.journalDir, argv);
    if (taken.length > 0) printError(`answer-eval: --resume: as the run was started: ${taken.join(' ')}\n`);
    const formats = parseFormats(argv.format);
    // where to send is decided here (it may start the embedded engine: a resumed embedded run restarts it on the
    // journal's knowledge base and options); every other option a resumed run does not repeat defaults to its
    // journal's inside runEvaluation
    const prior = resumed !== undefined ? await readJournalHeader(resumed.journalDir) : undefined;
    const baseUrl = argv.baseUrl ?? (prior && journaledBaseUrl(prior));
    const agent = argv.agent ?? prior?.request.agent;
    if (prior === undefined && baseUrl !== undefined && argv.dataset === undefined) throw new ConfigError('--dataset is required with --base-url (a .csv or .jsonl question set)');
    const dataset = argv.dataset ?? (prior === undefined && baseUrl === undefined ? SAMPLE_QUESTIONS : undefined);
    // judged on the knowledge base's coverage: refused before anything is asked when the run will not know one
    if (argv.minCoverage !== undefined && baseUrl !== undefined && argv.kb === undefined) {
      throw new ConfigError(`--min-coverage needs the knowledge base beside the service: give it with --kb FILE${prior !== undefined ? ' (a resumed run needs it again)' : ''}`);
    }
    const baseline = argv.baseline === undefined ? undefined : await readBaseline(argv.baseline);
    const quarantine = argv.quarantine === undefined ? undefined : await readQuarantine(argv.quarantine);
    const dir = resumed?.dir ?? argv.out ?? (await defaultReportDir(new Date()));
    await claimRunDir(dir, argv.resume !== undefined ? '--resume' : '--out');
    // a directory holding a run is refused before anything is sent, or with --overwrite the new run is staged beside it
    const journalDir = resumed?.journalDir ?? (await placeRun(dir, argv.overwrite));
    const replaces = journalDir !== dir ? dir : undefined;
    // opened once here, so a pipe is read once (into a temporary copy) for the baseline check and the run
    const source = await openDataset(dataset ?? prior!.dataset.path, { encoding: argv.encoding ?? prior?.dataset.encoding });
    const target = await openTarget({
      ...(baseUrl !== undefined ? { baseUrl, agentCode: await readAgentCode(argv.agentCodeFile) } : {}),
      ...(agent !== undefined ? { agent } : {}),
      ...(argv.kb !== undefined ? { kb: argv.kb } : {}),
      ...(argv.floor !== undefined ? { floor: argv.floor } : {}),
      ...(argv.suggestionThreshold !== undefined ? { suggestionThreshold: argv.suggestionThreshold } : {}),
      ...(baseUrl === undefined && prior?.request.engine ? { resumes: prior.request.engine } : {}),
    });
    for (const note of target.notes) printError(`answer-eval: ${note}\n`);
    if (argv.insecure) {
      printError(
        `answer-eval: WARNING: --insecure: TLS certificates are NOT verified. Anyone on the path to ${redactUrl(target.baseUrl)} ` +
          'can read the agent code and forge answers. Use it only against a test server.\n',
      );
    }
    const progress = renderProgress(process.stderr, argv.quiet);
    // what finishes the run if it stops: the gates and --baseline are kept (run-options.json), secrets in the URL are not
    const resume = `answer-eval run --resume ${dir}${baseUrl !== undefined && hasUrlSecrets(baseUrl) ? ' --base-url URL (the same URL: its credentials and query are not kept)' : ''}`;
    const kept = replaces !== undefined ? ` (the earlier run in ${dir} stays until this one completes)` : '';
    const interrupt = onInterrupt(`continue with: ${resume}${kept}`, argv.grace);
    const outcome = await (async () => {
      if (baseline) checkBaseline(baseline.head, argv.baseline!, { agent: target.agent }, argv.force);
      return runEvaluation({
        dataset: source,
        baseUrl: target.baseUrl,
        agent: target.agent,
        agentCode: target.agentCode,
        embeddedEngine: target.embedded,
        knowledgeBase: target.knowledgeBase,
        thresholds: thresholdOptionsOf(argv),
        ...(target.engine ? { engine: target.engine } : {}),
        concurrency: argv.concurrency,
        timeoutMs: argv.timeout,
        retries: argv.retries,
        language: argv.language,
        guest: argv.guest,
        forceSubscription: argv.forceSubscription,
        askForMetadata: argv.askForMetadata,
        usingRepeatingAnswers: argv.usingRepeatingAnswers,
        output: argv.output,
        maxResponseBytes: argv.maxResponseBytes,
        maxConsecutiveErrors: argv.maxConsecutiveErrors,
        insecure: argv.insecure,
        graceMs: argv.grace,
        journalDir,
        ...(replaces !== undefined ? { resumeDir: dir } : {}),
        resume: argv.resume !== undefined,
        signal: interrupt.signal,
        onEvent: (event) => {
          if (event.type === 'start' && argv.resume === undefined) keepRunOptions(journalDir, argv);
          // every result is journaled: from here a signal ends the process at once, however long a step of the
          // scoring or of a report holds the event loop (--resume DIR writes the reports without asking again)
          if (event.type === 'journaled') interrupt.dispose();
          progress.onEvent(event);
        },
        onKbMismatch: (first, count) => printKbMismatches(first, count, target.knowledgeBase),
        onWarning: (message) => printError(`answer-eval: warning: ${oneLine(message)}\n`),
        rerun: argv.rerun,
        rps: argv.rps,
        pauseOn429: argv.pauseOn429,
        username: argv.username,
        shard: argv.shard === undefined ? undefined : parseShard(argv.shard),
        aliases: argv.aliases,
        repeat: argv.repeat,
        maxTurnDelayMs: argv.maxTurnDelay,
      });
    })().finally(async () => {
      progress.stop();
      interrupt.dispose();
      await target.close();
      await source.close();
    });
    await finishRun(outcome, { dir: journalDir, formats, argv, resume, kbChecked: target.knowledgeBase !== undefined, ...(replaces !== undefined ? { replaces } : {}), ...(baseline ? { baseline: { data: baseline, file: argv.baseline!, quarantine } } : {}) });
  },
});

/** reports/<timestamp>, or reports/<timestamp>-2, -3... when a run of the same second has it: a new directory for every run. */
async function defaultReportDir(at: Date): Promise<string> {
  const base = `reports/${at.toISOString().replace(/[:.]/g, '-').replace(/-\d{3}Z$/, 'Z')}`;
  for (let n = 1; ; n++) {
    const dir = n === 1 ? base : `${base}-${n}`;
    if (!(await stat(dir).then(() => true, () => false))) return dir;
  }
}

/** The expectations the knowledge base cannot meet, printed whatever --quiet says: the first ones, then how many more. */
function printKbMismatches(first: InputProblem[], count: number, kb: KnowledgeBase | string | undefined): void {
  for (const p of first) printError(`answer-eval: warning: ${formatProblem(p)} (that question will fail)\n`);
  if (count > first.length) {
    printError(`answer-eval: warning: ${count - first.length} more expectations the knowledge base lacks; answer-eval validate -d ${first[0]?.file ?? 'DATASET'} --kb ${(typeof kb === 'object' ? kb.file : kb) ?? 'KB'} lists them all\n`);
  }
}
