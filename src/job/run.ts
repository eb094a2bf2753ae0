import { hasUrlSecrets, redactUrl } from '../client/url.js';
import { parseShard } from '../dataset/shard.js';
import { openDataset, type DatasetSource } from '../dataset/source.js';
import { SAMPLE_QUESTIONS } from '../engine/samples.js';
import { ConfigError, formatProblem, type InputProblem } from '../errors.js';
import type { KnowledgeBase } from '../engine/kb.js';
import type { Quarantine } from '../model/quarantine.js';
import type { ReportData } from '../model/source.js';
import type { Verdict } from '../model/verdict.js';
import { parseFormats } from '../report/write.js';
import type { ReportFormat } from '../report/formats.js';
import { thresholdOptionsOf } from '../report/threshold-options.js';
import type { JournalHeader } from '../run/journal.js';
import { readJournalHeader } from '../run/journal-read.js';
import { journaledBaseUrl } from '../run/resume.js';
import { RUN_DEFAULTS } from '../run/options.js';
import { runEvaluation, type RunOutcome } from '../run/run.js';
import { openTarget, type Target } from '../run/target.js';
import { oneLine } from '../util/terminal.js';
import type { JobIo } from './io.js';
import { job, type JobContext, type JobResult } from './job.js';
import type { Output } from './output.js';
import { readQuarantine } from './quarantine.js';
import { claimRunDir, locateResume, placeRun, defaultReportDir } from './run-dir.js';
import { readAgentCode } from './run/agent-code.js';
import { checkBaseline, readBaseline } from './run/baseline.js';
import { finishRun } from './run/finish.js';
import { keepRunOptions, resumeRunOptions } from './run/kept-options.js';
import { checkRunOptions, type RunJobOptions } from './run/options.js';
import { renderProgress } from './run/progress.js';
import { onInterrupt } from './signals.js';
import { runTasks, type Task } from './tasks.js';

/**
 * A run of this many questions or more, or from a dataset file of this many bytes or more, keeps V8's heap tight from
 * its start (JobIo.tightenHeap; BENCHMARKS.md, issue 40): memory is then its limit, more than the CPU of its asking.
 */
export const LARGE_RUN = 250_000;
const LARGE_DATASET_BYTES = 16 * 1024 * 1024;

export type { RunJobOptions } from './run/options.js';

/** What a run ends with: its exit code, the verdict of its gates, where its reports are. */
export interface RunJobResult extends JobResult {
  /** The gates' verdict; undefined when none was judged (none given, or the run stopped or measured nothing). */
  verdict?: Verdict | undefined;
  /** The run's directory (its reports, its journal). */
  dir?: string | undefined;
}

/** What the tasks of a run share. */
interface RunState {
  ctx: JobContext;
  o: RunJobOptions;
  result: RunJobResult;
  resumed?: { dir: string; journalDir: string } | undefined;
  prior?: JournalHeader | undefined;
  baseUrl?: string | undefined;
  formats: ReportFormat[];
  baseline?: { data: ReportData; quarantine?: Quarantine | undefined } | undefined;
  dir: string;
  journalDir: string;
  replaces?: string | undefined;
  source?: DatasetSource;
  target?: Target;
  /** The command that finishes the run if it stops. */
  resume: string;
  outcome?: RunOutcome;
}

/**
 * `answer-eval run`: asks every question of a dataset, judges the gates, compares with a baseline, writes every report
 * and the job summary. The same job as the CLI's, with the same options (its flags, camel-cased) and the same exit
 * code; `io` (default: the process's) is where it prints, its environment and working directory, and what stops it.
 */
export function run(options: RunJobOptions = {}, io?: JobIo): Promise<RunJobResult> {
  const result: RunJobResult = { exitCode: 0 };
  return job(io, result, (ctx) => runTasks<RunState>({ ctx, o: { ...options }, result, formats: [], dir: '', journalDir: '', resume: '' }, RUN_TASKS));
}

const RUN_TASKS: Task<RunState>[] = [
  { name: 'resume', run: findResumed },
  { name: 'baseline', run: readBaselineFiles },
  { name: 'run directory', run: claimDirectory },
  { name: 'dataset', run: openQuestions },
  { name: 'target', run: startTarget },
  { name: 'ask', run: ask },
  { name: 'finish', run: finish },
];

/** The run --resume continues (its directory, or its unfinished --overwrite run), and the options it was started with. */
async function findResumed(s: RunState): Promise<void> {
  checkRunOptions(s.o);
  const { o } = s;
  s.resumed = o.resume === undefined ? undefined : await locateResume(s.ctx, o.resume);
  // a resumed run is finished as it was meant to be: its gates, --baseline and --format, unless given again
  const taken = s.resumed === undefined ? [] : resumeRunOptions(s.resumed.journalDir, o);
  if (taken.length > 0) s.ctx.out.printError(`answer-eval: --resume: as the run was started: ${taken.join(' ')}\n`);
  s.formats = parseFormats(o.format ?? 'all');
  // where to send is decided here (it may start the embedded engine: a resumed embedded run restarts it on the
  // journal's knowledge base and options); every other option a resumed run does not repeat defaults to its
  // journal's inside runEvaluation
  s.prior = s.resumed !== undefined ? await readJournalHeader(s.resumed.journalDir) : undefined;
  s.baseUrl = o.baseUrl ?? (s.prior && journaledBaseUrl(s.prior));
  if (s.prior === undefined && s.baseUrl !== undefined && o.dataset === undefined) throw new ConfigError('--dataset is required with --base-url (a .csv or .jsonl question set)');
  // judged on the knowledge base's coverage: refused before anything is asked when the run will not know one
  if (o.minCoverage !== undefined && s.baseUrl !== undefined && o.kb === undefined) {
    throw new ConfigError(`--min-coverage needs the knowledge base beside the service: give it with --kb FILE${s.prior !== undefined ? ' (a resumed run needs it again)' : ''}`);
  }
}

async function readBaselineFiles(s: RunState): Promise<void> {
  if (s.o.baseline === undefined) return;
  const data = await readBaseline(s.o.baseline);
  s.baseline = { data, quarantine: s.o.quarantine === undefined ? undefined : await readQuarantine(s.o.quarantine) };
}

/** Claims the run's directory; a directory holding a run is refused before anything is sent, or with --overwrite the new run is staged beside it. */
async function claimDirectory(s: RunState): Promise<void> {
  s.dir = s.resumed?.dir ?? s.o.out ?? (await defaultReportDir(new Date(), s.ctx.io.cwd));
  s.result.dir = s.dir;
  await claimRunDir(s.ctx, s.dir, s.o.resume !== undefined ? '--resume' : '--out');
  s.journalDir = s.resumed?.journalDir ?? (await placeRun(s.ctx, s.dir, s.o.overwrite ?? false));
  s.replaces = s.journalDir !== s.dir ? s.dir : undefined;
}

/** Opened once here, so a pipe is read once (into a temporary copy) for the baseline check and the run. */
async function openQuestions(s: RunState): Promise<() => Promise<void>> {
  const dataset = s.o.dataset ?? (s.prior === undefined && s.baseUrl === undefined ? SAMPLE_QUESTIONS : s.prior!.dataset.path);
  const source = await openDataset(dataset, { encoding: s.o.encoding ?? s.prior?.dataset.encoding });
  s.source = source;
  // before the check pass reads it: the heap grows while a large set is read, and keeps what it grew to
  if (source.bytes >= LARGE_DATASET_BYTES) s.ctx.io.tightenHeap?.();
  return () => source.close();
}

async function startTarget(s: RunState): Promise<() => Promise<void>> {
  const { o, prior, baseUrl } = s;
  const { printError } = s.ctx.out;
  const agent = o.agent ?? prior?.request.agent;
  const target = await openTarget({
    ...(baseUrl !== undefined ? { baseUrl, agentCode: await readAgentCode(o.agentCodeFile, s.ctx.io.env) } : {}),
    ...(agent !== undefined ? { agent } : {}),
    ...(o.kb !== undefined ? { kb: o.kb } : {}),
    ...(o.floor !== undefined ? { floor: o.floor } : {}),
    ...(o.suggestionThreshold !== undefined ? { suggestionThreshold: o.suggestionThreshold } : {}),
    ...(baseUrl === undefined && prior?.request.engine ? { resumes: prior.request.engine } : {}),
  });
  s.target = target;
  for (const note of target.notes) printError(`answer-eval: ${note}\n`);
  if (o.insecure) {
    printError(
      `answer-eval: WARNING: --insecure: TLS certificates are NOT verified. Anyone on the path to ${redactUrl(target.baseUrl)} ` +
        'can read the agent code and forge answers. Use it only against a test server.\n',
    );
  }
  // what finishes the run if it stops: the gates and --baseline are kept (run-options.json), secrets in the URL are not
  s.resume = `answer-eval run --resume ${s.dir}${baseUrl !== undefined && hasUrlSecrets(baseUrl) ? ' --base-url URL (the same URL: its credentials and query are not kept)' : ''}`;
  return () => target.close();
}

/** The stages of the run (src/run/run.ts), with progress on stderr and SIGINT/SIGTERM stopping it gently. */
async function ask(s: RunState): Promise<void> {
  const { o, target, source, ctx } = s;
  const progress = renderProgress(ctx.out, ctx.io.stderr, o.quiet ?? false);
  const kept = s.replaces !== undefined ? ` (the earlier run in ${s.dir} stays until this one completes)` : '';
  const interrupt = onInterrupt(ctx, `continue with: ${s.resume}${kept}`, o.grace ?? RUN_DEFAULTS.graceMs);
  try {
    if (s.baseline) checkBaseline(s.baseline.data.head, o.baseline!, { agent: target!.agent }, o.force ?? false);
    s.outcome = await runEvaluation({
      dataset: source!,
      baseUrl: target!.baseUrl,
      agent: target!.agent,
      agentCode: target!.agentCode,
      embeddedEngine: target!.embedded,
      knowledgeBase: target!.knowledgeBase,
      thresholds: thresholdOptionsOf(o),
      ...(target!.engine ? { engine: target!.engine } : {}),
      concurrency: o.concurrency,
      timeoutMs: o.timeout,
      retries: o.retries,
      language: o.language,
      guest: o.guest,
      forceSubscription: o.forceSubscription,
      askForMetadata: o.askForMetadata,
      usingRepeatingAnswers: o.usingRepeatingAnswers,
      output: o.output,
      maxResponseBytes: o.maxResponseBytes,
      maxConsecutiveErrors: o.maxConsecutiveErrors,
      insecure: o.insecure,
      graceMs: o.grace,
      journalDir: s.journalDir,
      ...(s.replaces !== undefined ? { resumeDir: s.dir } : {}),
      resume: o.resume !== undefined,
      signal: interrupt.signal,
      onEvent: (event) => {
        if (event.type === 'start' && o.resume === undefined) keepRunOptions(s.journalDir, o);
        // a heap kept tight costs the asking about a third more CPU: worth it where memory is the limit
        if (event.type === 'start' && event.total >= LARGE_RUN) ctx.io.tightenHeap?.();
        // every result is journaled: from here a signal ends the process at once, however long a step of the
        // scoring or of a report holds the event loop (--resume DIR writes the reports without asking again)
        if (event.type === 'journaled') {
          interrupt.dispose();
          ctx.io.tightenHeap?.();
        }
        progress.onEvent(event);
      },
      onKbMismatch: (first, count) => printKbMismatches(ctx.out, first, count, target!.knowledgeBase),
      onWarning: (message) => ctx.out.printError(`answer-eval: warning: ${oneLine(message)}\n`),
      rerun: o.rerun,
      rps: o.rps,
      pauseOn429: o.pauseOn429,
      username: o.username,
      shard: o.shard === undefined ? undefined : parseShard(o.shard, ctx.io.env),
      aliases: o.aliases,
      repeat: o.repeat,
      maxTurnDelayMs: o.maxTurnDelay,
    });
  } finally {
    progress.stop();
    interrupt.dispose();
  }
}

/** Gates, reports, the comparison with the baseline, the job summary, publishing an --overwrite run (src/job/run/finish.ts). */
async function finish(s: RunState): Promise<void> {
  await finishRun(s.ctx, s.outcome!, {
    dir: s.journalDir,
    formats: s.formats,
    argv: { ...s.o, force: s.o.force ?? false },
    resume: s.resume,
    kbChecked: s.target!.knowledgeBase !== undefined,
    onVerdict: (verdict) => (s.result.verdict = verdict),
    ...(s.replaces !== undefined ? { replaces: s.replaces } : {}),
    ...(s.baseline ? { baseline: { data: s.baseline.data, file: s.o.baseline!, quarantine: s.baseline.quarantine } } : {}),
  });
}

/** The expectations the knowledge base cannot meet, printed whatever --quiet says: the first ones, then how many more. */
function printKbMismatches({ printError }: Output, first: InputProblem[], count: number, kb: KnowledgeBase | string | undefined): void {
  for (const p of first) printError(`answer-eval: warning: ${formatProblem(p)} (that question will fail)\n`);
  if (count > first.length) {
    printError(`answer-eval: warning: ${count - first.length} more expectations the knowledge base lacks; answer-eval validate -d ${first[0]?.file ?? 'DATASET'} --kb ${(typeof kb === 'object' ? kb.file : kb) ?? 'KB'} lists them all\n`);
  }
}
