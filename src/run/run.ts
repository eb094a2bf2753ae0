import { checkAgentCode } from '../client/agent-code.js';
import { ask, type AskContext, type AskResult } from '../client/ask.js';
import { CIRCUIT_BREAKER } from '../model/stop.js';
import { DEFAULT_BACKOFF } from '../client/backoff.js';
import { runLanguage, vetQuestion, type RequestSettings } from '../client/request.js';
import { TextKnowledge } from '../client/text-reply.js';
import { regionLanguageNote } from '../dataset/language-note.js';
import { Secrets } from '../client/secrets/secrets.js';
import { suppliedSecrets, tooShortWarnings } from '../client/secrets/supplied.js';
import { Throttle } from '../client/throttle.js';
import { Transport } from '../client/transport.js';
import { answerEndpoint } from '../client/url.js';
import { readAliases } from '../dataset/aliases.js';
import { randomBytes } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { kbRefsOf } from '../dataset/kb-refs.js';
import { loadKnowledgeBase } from '../engine/kb.js';
import { checkQuestions, checkUnchanged, itemsOf } from '../dataset/read.js';
import { missingInKb } from '../dataset/validate.js';
import { inShard } from '../dataset/shard.js';
import { OUTCOME_CLASSES } from '../model/outcome.js';
import { isConversation, type Conversation, type DatasetItem, type Question } from '../model/question.js';
import { AnswerEvalError, ConfigError, formatProblem, InputError, InterruptedError, RunAbortedError, type InputProblem } from '../errors.js';
import { metadataProblems, reportedMetadata } from '../dataset/metadata.js';
import { SCHEMA_VERSION, type QuestionResult, type Report } from '../model/report.js';
import { toReport, type ReportData } from '../model/source.js';
import { scoreConversation, type AskedConversation } from '../score/conversation.js';
import { compileMatcher, type Matcher } from '../score/match.js';
import { scoreResults } from '../score/metrics/index.js';
import { toResult } from '../score/result.js';
import { MAX_RESPONSE_BYTES } from '../util/json-lines.js';
import { inPages } from '../util/pages.js';
import { TOOL_NAME, TOOL_VERSION } from '../version.js';
import { Backlog } from './backlog.js';
import { askConversation, conversationUser } from './conversation.js';
import { execute } from './execute.js';
import { journalHeader, runInfo, type DatasetFacts, type Resolved } from './head.js';
import { headerDifferences, journalLine, journalPath, JournalWriter, type JournalEntry } from './journal.js';
import { readJournal } from './journal-read.js';
import { journaledAs, PriorResults } from './prior.js';
import { RUN_DEFAULTS, type RunOptions } from './options.js';
import { entriesOf } from './knowledge-base.js';
import { RepeatStore, withRepeats } from './repeats.js';
import { givenOnly, journaledBaseUrl, resumeDefaults } from './resume.js';
import { datasetStop, endOnError, journalFailure, OpenedDatasets } from './stop-reasons.js';
import { journalStore, memoryStore } from './store.js';
import { SecretSightings } from './secret-sightings.js';
import { checkBaseUrl } from './target.js';

/**
 * Questions read from the dataset at a time while asking. Reading a page holds up the replies that arrive meanwhile (their
 * latency grows, their slots wait): 1,024 rows held them up to 20 ms, taking 2% off the questions a second at 50 ms
 * latency (bench b); 128 rows keep it to a few ms and still read in bursts (see inPages).
 */
const PAGE = 128;

export interface RunOutcome {
  /** The report, its results read back from the journal when the run kept one: fit for any size. */
  data: ReportData;
  /**
   * The whole report in memory, every result read (from the journal, when there is one: read it before
   * anything rewrites that journal): for small runs, scripts and tests.
   */
  readonly report: Report;
  /** Why the run stopped early (the report is then partial); undefined when it completed. */
  stoppedBy?: AnswerEvalError | Error;
}

/**
 * Checks the dataset (one streaming pass, nothing sent on a problem), asks every question of it (or,
 * resuming, those the journal lacks) as a second pass, journals each result as it finishes, and scores
 * them into a report in dataset order. A conversation is asked turn after turn as one user, side by side with the
 * other conversations and questions, and its turns are journaled together once it ends (a result per turn).
 * Memory grows with concurrency, not with the number of questions.
 */
export async function runEvaluation(options: RunOptions): Promise<RunOutcome> {
  const datasets = new OpenedDatasets();
  try {
    return await evaluate(options, datasets);
  } finally {
    await datasets.close();
  }
}

async function evaluate(options: RunOptions, datasets: OpenedDatasets): Promise<RunOutcome> {
  if (options.resume && options.journalDir === undefined) throw new ConfigError('resume needs the journal directory (--resume DIR)');
  if (options.rerun !== undefined && !options.resume) throw new ConfigError('--rerun errors needs --resume DIR (it reruns the errors of an earlier run)');
  const prior = options.resume ? await readJournal(options.journalDir!) : undefined;
  if (prior && options.baseUrl === undefined) journaledBaseUrl(prior.header); // refused when the journal left out the URL's secrets
  const o = resolve({ ...RUN_DEFAULTS, ...(prior ? resumeDefaults(prior.header) : {}), ...givenOnly(options) });
  checkAgentCode(o.agentCode);
  // every secret the user gave, masked in whatever the service sends back; those too short to be, said now
  const supplied = suppliedSecrets({ agentCode: o.agentCode, baseUrl: o.baseUrl });
  for (const warning of tooShortWarnings(supplied)) o.onWarning?.(warning);
  const secrets = new Secrets(supplied);
  const sightings = new SecretSightings(supplied);
  const endpoint = parseEndpoint(o.baseUrl);
  const aliases = o.aliases === undefined ? undefined : await readAliases(o.aliases);
  // rows with the same expectations share one compiled matcher (a dataset has few distinct ones per entry)
  const matchers = new Map<string, Matcher>();
  const matcherOf = (q: Question): Matcher => {
    const key = JSON.stringify(q.expected);
    let m = matchers.get(key);
    if (m === undefined) {
      if (matchers.size >= 1_000) matchers.clear(); // each may hold its regular expressions' DFA (src/model/regex.ts)
      matchers.set(key, (m = compileMatcher(q.expected, aliases)));
    }
    return m;
  };

  // the journal's results, each checked against its question before it is taken
  const taken = prior && new PriorResults(prior, journalPath(o.journalDir!), o.rerun === 'errors', (q, r) => journaledAs(q, r, o.language, matcherOf(q)));
  // read once: its entries for the scoring, what expectations may name for the check before the first request
  // (the embedded engine's comes loaded: openTarget read it for the engine)
  const kb = typeof o.knowledgeBase === 'string' ? await loadKnowledgeBase(o.knowledgeBase) : o.knowledgeBase;
  const knowledgeBase = kb && entriesOf(kb);
  if (kb) sightings.knowledgeBase(kb);
  const settings: RequestSettings = {
    agent: o.agent,
    language: o.language,
    guest: o.guest,
    forceSubscription: o.forceSubscription,
    ...(o.askForMetadata !== undefined ? { askForMetadata: o.askForMetadata } : {}),
    ...(o.usingRepeatingAnswers !== undefined ? { usingRepeatingAnswers: o.usingRepeatingAnswers } : {}),
    output: o.output,
    ...(o.username !== undefined ? { username: o.username } : {}),
  };
  // asking k of a question (0: the first; 1...: the further ones of --repeat) that the journal holds already
  const fromPrior = (q: Question, k = 0): JournalEntry | undefined => taken?.entry(q, k);
  // a conversation is taken from the journal only whole, as one asking journaled it (its lines one after the other):
  // one cut off half way, or torn by a crash, is asked again from its first turn
  const conversationFromPrior = (c: Conversation): JournalEntry[] | undefined => {
    const entries = c.turns.map((turn) => fromPrior(turn)); // every turn looked up (see PriorResults.checkUnknown)
    const whole = entries.every((entry, t): entry is JournalEntry => entry !== undefined && (t === 0 || entries[t - 1]!.offset + entries[t - 1]!.length + 1 === entry.offset));
    return whole ? entries : undefined;
  };
  // a fresh user name per run (a resumed run is a new one) and conversation, unless the conversation has its own
  const runName = randomBytes(4).toString('hex');

  // pass 1: every problem before anything is sent
  const mine = (item: DatasetItem): boolean => o.shard === undefined || inShard(item.id, o.shard);
  let total = 0;
  let toAsk = 0;
  let badSetting: Error | undefined;
  const vet = (q: Question): void => {
    try {
      vetQuestion(q, settings, kb !== undefined);
    } catch (error) {
      badSetting ??= error as Error;
    }
  };
  const source = await datasets.open(o.dataset, o.encoding);
  // expectations the knowledge base cannot meet: told, not refused (the run measures the service as it is)
  const kbRefs = kb && o.onKbMismatch ? kbRefsOf(kb) : undefined;
  const mismatches: InputProblem[] = [];
  let mismatchCount = 0;
  const checkKb = (q: Question): void => {
    if (!kbRefs) return;
    for (const problem of missingInKb(q, kbRefs, source.name, aliases)) if (++mismatchCount <= 20) mismatches.push(problem);
  };
  let byLine = 0; // items named by their line (no id given)
  const checked = await checkQuestions(source, (item) => {
    if (o.signal?.aborted) throw checkInterrupted(o.signal.reason, prior !== undefined);
    if (item.id === String(item.line)) byLine++;
    if (!mine(item)) return;
    if (isConversation(item)) {
      item.turns.forEach(checkKb);
      for (const turn of item.turns) sightings.question(turn, source.name);
      if (o.repeat > 1) {
        badSetting ??= new ConfigError(
          `--repeat ${o.repeat} cannot ask conversations (${source.name}:${item.line}: conversation "${item.id}"): a conversation is asked once per run, ` +
            'as a new user each time; run the dataset again instead, or --repeat a dataset of single questions',
        );
      }
      total += item.turns.length;
      if (conversationFromPrior(item) === undefined) toAsk += item.turns.length;
      for (const turn of item.turns) vet({ ...turn, username: conversationUser(item, runName), guest: false });
      return;
    }
    total++;
    for (let k = 0; k < o.repeat; k++) if (fromPrior(item, k) === undefined) toAsk++;
    vet(item);
    checkKb(item);
    sightings.question(item, source.name);
  });
  if (checked.problems.length > 0) throw new InputError(checked.problems);
  if (badSetting) throw badSetting;
  taken?.checkUnknown();
  taken?.close();
  if (mismatchCount > 0) o.onKbMismatch?.(mismatches, mismatchCount);
  for (const warning of sightings.warnings()) o.onWarning?.(warning);
  for (const p of metadataProblems(checked.metadata, source.name)) o.onWarning?.(formatProblem(p));
  const regions = regionLanguageNote(checked.regionLanguages, source.name);
  if (regions) o.onWarning?.(formatProblem(regions));
  const metadata = reportedMetadata(checked.metadata);
  const idsByLine = byLine > 0 && !checked.columns.includes('id');
  if (idsByLine) {
    o.onWarning?.(
      `${source.name} has no id column: its questions are named by their line. compare and --baseline match questions by id, so a row ` +
        'added or removed renames every question after it (a regression gate then cannot be judged, and fails); give each row a stable id',
    );
  }
  const dataset: DatasetFacts = {
    path: source.name,
    sha256: checked.sha256,
    questions: checked.count,
    ...(source.encoding ? { encoding: source.encoding } : {}),
    ...(checked.conversations > 0 ? { conversations: checked.conversations } : {}),
    ...(idsByLine ? { idsByLine } : {}),
    ...(metadata ? { metadata } : {}),
  };
  await checkUnchanged(source);

  const startedAt = new Date();
  const header = journalHeader(dataset, o, startedAt);
  const runTag = prior?.header.run ?? header.run; // a resumed run goes on with its journal's tag
  const drain = new AbortController(); // stop sending; requests in flight may finish
  const cancel = new AbortController(); // abort requests in flight
  const stop = (reason: Error): void => {
    if (!drain.signal.aborted) drain.abort(maskedError(reason, secrets)); // the progress line says why
  };
  let journal: JournalWriter | undefined;
  if (prior) {
    const diffs = headerDifferences(prior.header, header);
    if (diffs.length > 0) throw new ConfigError(`cannot resume ${o.journalDir}: ${diffs.join('; ')}`);
    for (const note of taken!.notes()) o.onWarning?.(note);
    journal = await JournalWriter.resume(o.journalDir!, prior.validBytes, stop);
  } else if (o.journalDir !== undefined) {
    if (await stat(journalPath(o.journalDir)).then(() => true, () => false)) {
      throw new ConfigError(`${o.journalDir} holds the journal of another run (${journalPath(o.journalDir)}): resume it, or journal this run elsewhere`);
    }
    journal = await JournalWriter.create(o.journalDir, header, stop);
  }
  const store = journal ? journalStore(journal.path, total) : memoryStore(total);
  const repeats = o.repeat > 1 ? new RepeatStore(o.repeat, total, journal?.path) : undefined;
  const askings = total * o.repeat;

  // pass 2: the questions again, as a stream (once more for each further asking of --repeat, so that the askings of
  // a question are spread over the run), read a page at a time; journaled ones are taken as they are. A
  // conversation takes one slot per turn, from `index` on.
  let fromJournal = 0;
  async function* questions(): AsyncGenerator<{ q: Question; index: number; k: number } | { c: Conversation; index: number }> {
    for (let k = 0; k < o.repeat; k++) {
      let index = 0;
      // the dataset changed: nothing more is read, what was asked stays, partial reports follow
      for await (const q of inPages(endOnError(itemsOf(source), (error) => stop(datasetStop(error, o.journalDir, o.resumeDir ?? o.journalDir))), PAGE)) {
        if (!mine(q)) continue;
        if (isConversation(q)) {
          const entries = conversationFromPrior(q); // --repeat was refused: k is 0
          if (entries === undefined) yield { c: q, index };
          else {
            entries.forEach((entry, t) => store.keep(index + t, entry));
            fromJournal += entries.length;
          }
          index += q.turns.length;
          continue;
        }
        const entry = fromPrior(q, k);
        if (entry === undefined) yield { q, index, k };
        else if (k > 0) repeats!.keep(index, k, entry);
        else {
          store.keep(index, entry);
          fromJournal++;
        }
        index++;
      }
    }
  }

  const emit = o.onEvent;
  const throttle = new Throttle({
    ...(o.rps !== undefined ? { rps: o.rps } : {}),
    ...(emit ? { onPause: (waitMs: number, rps: number) => emit({ type: 'pause', waitMs, rps }), onRate: (rps: number | null) => emit({ type: 'rate', rps }) } : {}),
  });
  const transport = new Transport({ connections: o.concurrency, timeoutMs: o.timeoutMs, maxResponseBytes: o.maxResponseBytes, insecure: o.insecure });
  const ctx: AskContext = {
    transport,
    endpoint,
    agentCode: o.agentCode,
    secrets,
    settings,
    retries: o.retries,
    backoff: o.backoff ?? DEFAULT_BACKOFF,
    cancel: cancel.signal,
    throttle,
    ...(kb ? { knowledge: new TextKnowledge(kb.entries) } : {}),
    ...(emit
      ? { onRetry: (q, e, waitMs) => emit({ type: 'retry', id: q.id, reason: e.status ? `${e.kind} ${e.status}` : e.kind, waitMs }) }
      : {}),
  };

  // an outside stop (SIGINT) or the circuit breaker: no more sends, then a grace period for those in flight
  let graceTimer: NodeJS.Timeout | undefined;
  drain.signal.addEventListener('abort', () => {
    emit?.({ type: 'stopping', reason: String((drain.signal.reason as Error)?.message ?? drain.signal.reason) });
    graceTimer = setTimeout(() => cancel.abort(drain.signal.reason), o.graceMs).unref();
  }, { once: true });
  const onOuterAbort = () => stop(asStopReason(o.signal?.reason));
  if (o.signal?.aborted) onOuterAbort();
  o.signal?.addEventListener('abort', onOuterAbort, { once: true });

  emit?.({ type: 'start', total: askings, done: askings - toAsk, toAsk });
  let done = askings - toAsk;
  let errorStreak = 0;
  let journalError: Error | undefined;
  const onResult = ({ index, k, result }: { index: number; k: number; result: QuestionResult }): void => {
    // what the service sent is masked already (src/client/ask.ts, src/score/result.ts); the question as written
    const line = journalLine(runTag, result, k);
    if (k === 0) store.put(index, result, journal?.append(line));
    else repeats!.put(index, k, result, journal?.append(line));
    o.onProgress?.(++done, askings);
    const error = result.outcome === 'error';
    emit?.({ type: 'result', id: result.id, error });
    // a skipped turn was not asked: it neither breaks a streak of errors nor adds to it
    if (error || OUTCOME_CLASSES[result.outcome].responded) errorStreak = error ? errorStreak + 1 : 0;
    if (o.maxConsecutiveErrors > 0 && errorStreak === o.maxConsecutiveErrors) {
      stop(new RunAbortedError(
        `${CIRCUIT_BREAKER}: ${errorStreak} questions in a row ended in error (the last: ${result.error?.message ?? 'error'}); ` +
          'stopped instead of hammering the service (--max-consecutive-errors)',
      ));
    }
  };
  // a reply frees its slot at once (the next request goes out); scoring and journaling wait for the loop's next turn.
  // A conversation's turns are scored and journaled together, one line after the other, once its last turn is answered
  const backlog = new Backlog<{ q: Question; index: number; k: number; asked: AskResult } | { c: Conversation; index: number; asked: AskedConversation }>(
    (work) => {
      if ('q' in work) onResult({ index: work.index, k: work.k, result: toResult(work.q, work.asked, o.language, matcherOf(work.q)) });
      else scoreConversation(work.c, work.asked, o.language, matcherOf).forEach((result, t) => onResult({ index: work.index + t, k: 0, result }));
    },
    (error) => stop(toError(error)),
  );
  let askCtx: AskContext | undefined;
  const execution = await execute(
    questions(),
    async (item, _i, signal) => {
      const withSignal = signal === askCtx?.signal ? askCtx : (askCtx = { ...ctx, signal }); // one signal for the whole run
      if ('q' in item) backlog.push({ ...item, asked: await ask(withSignal, item.q) });
      else backlog.push({ ...item, asked: await askConversation(withSignal, item.c, conversationUser(item.c, runName), o.maxTurnDelayMs) });
    },
    { concurrency: o.concurrency, signal: drain.signal },
  ).finally(async () => {
    backlog.flush();
    clearTimeout(graceTimer);
    o.signal?.removeEventListener('abort', onOuterAbort);
    await transport.close();
    await journal?.close().catch((error: Error) => (journalError = error));
  });
  emit?.({ type: 'journaled' });
  const finishedAt = new Date();

  if (journalError) journalError = await journalFailure(journalError, journal!.path, o.resumeDir ?? o.journalDir!, store);
  const stoppedBy = journalError ?? (execution.stoppedBy === undefined ? undefined : maskedError(toError(execution.stoppedBy), secrets));
  const results = repeats ? withRepeats(store.source(), repeats) : store.source();
  const data: ReportData = {
    head: {
      schemaVersion: SCHEMA_VERSION,
      tool: { name: TOOL_NAME, version: TOOL_VERSION },
      run: runInfo(dataset, o, { startedAt, finishedAt, total, finished: store.count, stoppedBy, fromJournal, asked: toAsk, dropped: taken?.dropped ?? 0, unaskedRepeats: repeats?.missing ?? 0 }),
      ...scoreResults(results, { ...(knowledgeBase ? { knowledgeBase } : {}), ...(o.thresholds ? { thresholds: o.thresholds } : {}) }),
    },
    results,
  };
  let report: Report | undefined;
  const outcome: RunOutcome = {
    data,
    get report() {
      return (report ??= toReport(data));
    },
  };
  if (stoppedBy) outcome.stoppedBy = stoppedBy;
  return outcome;
}

function resolve(o: RunOptions & Required<Pick<RunOptions, keyof typeof RUN_DEFAULTS>>): Resolved {
  for (const [key, flag] of [['dataset', '--dataset'], ['baseUrl', '--base-url'], ['agent', '--agent']] as const) {
    if (o[key] === undefined) throw new ConfigError(`${flag} is required (or resume a journaled run)`);
  }
  if (!Number.isInteger(o.repeat) || o.repeat < 1) throw new ConfigError(`--repeat must be a whole number >= 1, got ${o.repeat}`);
  o.language = runLanguage(o.language, o.onWarning); // a region form (en-US) is asked, journaled and reported as its code
  if (!Number.isInteger(o.maxResponseBytes) || o.maxResponseBytes < 1 || o.maxResponseBytes > MAX_RESPONSE_BYTES) {
    throw new ConfigError(`--max-response-bytes must be a whole number from 1 to ${MAX_RESPONSE_BYTES} (32 MiB), got ${o.maxResponseBytes}`);
  }
  return o as Resolved;
}

/** The endpoint; a ConfigError names the --base-url as typed when it is not an http(s) URL (see checkBaseUrl). */
const parseEndpoint = (baseUrl: string): URL => answerEndpoint(checkBaseUrl(baseUrl).baseUrl);

function asStopReason(reason: unknown): Error {
  if (reason instanceof AnswerEvalError) return reason;
  return new RunAbortedError(`interrupted${reason instanceof Error && reason.name !== 'AbortError' ? `: ${reason.message}` : ''}`);
}

/** A stop reason as the report and stderr say it: an error of any kind may quote what the service sent. */
function maskedError(error: Error, secrets: Secrets): Error {
  const message = secrets.mask(error.message);
  if (message !== error.message) error.message = message;
  if (error.stack !== undefined && secrets.holds(error.stack)) error.stack = secrets.mask(error.stack);
  return error;
}

/** A stop while the dataset is checked: nothing was sent, nor journaled (a resumed run's journal is as it was). */
function checkInterrupted(reason: unknown, resuming: boolean): Error {
  if (resuming) return asStopReason(reason); // its advice (--resume DIR) holds
  const by = reason instanceof InterruptedError ? ` by ${reason.signal}` : '';
  return new RunAbortedError(`interrupted${by} while the dataset was checked: nothing was sent; run the command again`);
}

function toError(reason: unknown): Error {
  if (reason instanceof Error) return reason;
  return new Error(String(reason));
}
