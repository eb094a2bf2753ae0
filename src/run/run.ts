import { ask, type AskContext } from '../client/ask.js';
import { DEFAULT_BACKOFF } from '../client/backoff.js';
import { buildRequestBody, type RequestSettings } from '../client/request.js';
import { holdsSecret, maskSecret } from '../client/secret.js';
import { Throttle } from '../client/throttle.js';
import { Transport } from '../client/transport.js';
import { answerEndpoint, redactUrl } from '../client/url.js';
import { readAliases } from '../dataset/aliases.js';
import { readDataset, type Dataset } from '../dataset/read.js';
import { inShard } from '../dataset/shard.js';
import type { Question } from '../dataset/question.js';
import { AnswerEvalError, ConfigError, RunAbortedError } from '../errors.js';
import { SCHEMA_VERSION, type QuestionResult, type Report } from '../report/schema.js';
import { arraySource } from '../report/source.js';
import { compileMatcher } from '../score/match.js';
import { computeMetrics } from '../score/metrics/index.js';
import { toResult } from '../score/result.js';
import { summarize } from '../score/summary.js';
import { TOOL_NAME, TOOL_VERSION } from '../version.js';
import { execute } from './execute.js';
import { headerDifferences, JOURNAL_VERSION, JournalWriter, readJournal, type JournalHeader } from './journal.js';
import { RUN_DEFAULTS, type RunOptions } from './options.js';

export interface RunOutcome {
  report: Report;
  /** Why the run stopped early (the report is then partial); undefined when it completed. */
  stoppedBy?: AnswerEvalError | Error;
}

type Resolved = RunOptions & Required<Pick<RunOptions, keyof typeof RUN_DEFAULTS>>;

/**
 * Reads the dataset, asks every question (or, resuming, those the journal lacks), journals each result
 * as it finishes, and scores them into a report in dataset order.
 */
export async function runEvaluation(options: RunOptions): Promise<RunOutcome> {
  const o: Resolved = { ...RUN_DEFAULTS, ...options };
  if (o.output !== 'json') throw new ConfigError(`--output ${o.output} cannot be scored yet (only json is)`);
  if (o.resume && o.journalDir === undefined) throw new ConfigError('resume needs the journal directory (--resume DIR)');
  if (o.rerun !== undefined && !o.resume) throw new ConfigError('--rerun errors needs --resume DIR (it reruns the errors of an earlier run)');
  const endpoint = parseEndpoint(o.baseUrl);
  const dataset = await readDataset(o.dataset);
  const aliases = o.aliases === undefined ? undefined : await readAliases(o.aliases);
  const questions = o.shard ? dataset.questions.filter((q) => inShard(q.id, o.shard!)) : dataset.questions;
  const settings: RequestSettings = {
    agent: o.agent,
    language: o.language,
    guest: o.guest,
    forceSubscription: o.forceSubscription,
    output: o.output,
    ...(o.username !== undefined ? { username: o.username } : {}),
  };
  for (const q of questions) buildRequestBody(q, settings); // fails before anything is sent

  const startedAt = new Date();
  const header = journalHeader(dataset, o, startedAt);
  const total = questions.length;
  const results: (QuestionResult | undefined)[] = new Array<QuestionResult | undefined>(total);
  const drain = new AbortController(); // stop sending; requests in flight may finish
  const cancel = new AbortController(); // abort requests in flight
  const stop = (reason: Error): void => {
    if (!drain.signal.aborted) drain.abort(reason);
  };

  let journal: JournalWriter | undefined;
  let fromJournal = 0;
  if (o.journalDir !== undefined && o.resume) {
    const prior = await readJournal(o.journalDir);
    const diffs = headerDifferences(prior.header, header);
    if (diffs.length > 0) throw new ConfigError(`cannot resume ${o.journalDir}: ${diffs.join('; ')}`);
    questions.forEach((q, i) => {
      const r = prior.results.get(q.id);
      if (r !== undefined && !(o.rerun === 'errors' && r.outcome === 'error')) {
        results[i] = r;
        fromJournal++;
      }
    });
    journal = await JournalWriter.resume(o.journalDir, prior.validBytes, stop);
  } else if (o.journalDir !== undefined) {
    journal = await JournalWriter.create(o.journalDir, header, stop);
  }
  const indices: number[] = [];
  const toAsk: Question[] = [];
  questions.forEach((q, i) => {
    if (results[i] === undefined) {
      indices.push(i);
      toAsk.push(q);
    }
  });

  const emit = o.onEvent;
  const throttle = new Throttle({
    ...(o.rps !== undefined ? { rps: o.rps } : {}),
    ...(emit ? { onPause: (waitMs: number, rps: number) => emit({ type: 'pause', waitMs, rps }) } : {}),
  });
  const transport = new Transport({ connections: o.concurrency, timeoutMs: o.timeoutMs, maxResponseBytes: o.maxResponseBytes, insecure: o.insecure });
  const ctx: AskContext = {
    transport,
    endpoint,
    agentCode: o.agentCode,
    settings,
    retries: o.retries,
    backoff: o.backoff ?? DEFAULT_BACKOFF,
    cancel: cancel.signal,
    throttle,
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

  emit?.({ type: 'start', total, done: fromJournal, toAsk: toAsk.length });
  let done = fromJournal;
  let errorStreak = 0;
  const onResult = (result: QuestionResult, i: number): void => {
    let line = JSON.stringify(result);
    if (holdsSecret(line, o.agentCode)) {
      line = maskSecret(line, o.agentCode); // a service that echoes it back
      result = JSON.parse(line) as QuestionResult;
    }
    journal?.append(line);
    results[indices[i]!] = result;
    o.onProgress?.(++done, total);
    const error = result.outcome === 'error';
    emit?.({ type: 'result', id: result.id, error });
    errorStreak = error ? errorStreak + 1 : 0;
    if (o.maxConsecutiveErrors > 0 && errorStreak === o.maxConsecutiveErrors) {
      stop(new RunAbortedError(
        `circuit breaker: ${errorStreak} questions in a row ended in error (the last: ${result.error?.message ?? 'error'}); ` +
          'stopped instead of hammering the service (--max-consecutive-errors)',
      ));
    }
  };
  const execution = await execute(toAsk, async (q, _i, signal) => toResult(q, await ask({ ...ctx, signal }, q), o.language, compileMatcher(q.expected, aliases)), {
    concurrency: o.concurrency,
    signal: drain.signal,
    onResult,
  }).finally(async () => {
    clearTimeout(graceTimer);
    o.signal?.removeEventListener('abort', onOuterAbort);
    await transport.close();
  });
  await journal?.close();
  const finishedAt = new Date();

  const finished = results.filter((r): r is QuestionResult => r !== undefined);
  const stoppedBy = execution.stoppedBy === undefined ? undefined : toError(execution.stoppedBy);
  const report: Report = {
    schemaVersion: SCHEMA_VERSION,
    tool: { name: TOOL_NAME, version: TOOL_VERSION },
    run: {
      startedAt: startedAt.toISOString(),
      finishedAt: finishedAt.toISOString(),
      durationMs: finishedAt.getTime() - startedAt.getTime(),
      status: finished.length === total ? 'completed' : 'partial',
      ...(stoppedBy ? { stopReason: stoppedBy.message } : {}),
      baseUrl: redactUrl(o.baseUrl),
      embeddedEngine: o.embeddedEngine ?? false,
      agent: o.agent,
      dataset: { path: dataset.path, sha256: dataset.sha256, questions: dataset.questions.length },
      ...(o.shard ? { shard: { ...o.shard, questions: total } } : {}),
      options: {
        concurrency: o.concurrency,
        timeoutMs: o.timeoutMs,
        retries: o.retries,
        language: o.language,
        output: o.output,
        guest: o.guest,
        ...(o.username !== undefined ? { username: o.username } : {}),
        forceSubscription: o.forceSubscription,
        ...(o.rps !== undefined ? { rps: o.rps } : {}),
        maxConsecutiveErrors: o.maxConsecutiveErrors,
        ...(o.insecure ? { insecure: true } : {}),
      },
      ...(o.resume ? { resumed: { fromJournal, asked: toAsk.length, rerun: o.rerun ?? null } } : {}),
    },
    summary: summarize(finished),
    metrics: computeMetrics(arraySource(finished)),
    results: finished,
  };
  return stoppedBy ? { report, stoppedBy } : { report };
}

function journalHeader(dataset: Dataset, o: Resolved, startedAt: Date): JournalHeader {
  return {
    journal: JOURNAL_VERSION,
    tool: { name: TOOL_NAME, version: TOOL_VERSION },
    dataset: { path: dataset.path, sha256: dataset.sha256, questions: dataset.questions.length },
    request: {
      baseUrl: redactUrl(o.baseUrl),
      agent: o.agent,
      language: o.language,
      guest: o.guest,
      username: o.username ?? null,
      forceSubscription: o.forceSubscription,
      output: o.output,
    },
    startedAt: startedAt.toISOString(),
  };
}

function parseEndpoint(baseUrl: string): URL {
  let url: URL;
  try {
    url = answerEndpoint(baseUrl);
  } catch {
    throw new ConfigError(`--base-url "${redactUrl(baseUrl)}" is not a URL (expected e.g. https://service.example/)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`--base-url must be http:// or https://, got ${url.protocol}`);
  }
  return url;
}

function asStopReason(reason: unknown): Error {
  if (reason instanceof AnswerEvalError) return reason;
  return new RunAbortedError(`interrupted${reason instanceof Error && reason.name !== 'AbortError' ? `: ${reason.message}` : ''}`);
}

function toError(reason: unknown): Error {
  if (reason instanceof Error) return reason;
  return new Error(String(reason));
}
