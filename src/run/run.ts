import { ask, type AskContext } from '../client/ask.js';
import { DEFAULT_BACKOFF } from '../client/backoff.js';
import { buildRequestBody, type RequestSettings } from '../client/request.js';
import { Transport } from '../client/transport.js';
import { answerEndpoint, redactUrl } from '../client/url.js';
import { readAliases } from '../dataset/aliases.js';
import { readDataset } from '../dataset/read.js';
import { inShard } from '../dataset/shard.js';
import { AnswerEvalError, ConfigError } from '../errors.js';
import { SCHEMA_VERSION, type QuestionResult, type Report } from '../report/schema.js';
import { arraySource } from '../report/source.js';
import { compileMatcher } from '../score/match.js';
import { computeMetrics } from '../score/metrics/index.js';
import { toResult } from '../score/result.js';
import { summarize } from '../score/summary.js';
import { TOOL_NAME, TOOL_VERSION } from '../version.js';
import { execute } from './execute.js';
import { RUN_DEFAULTS, type RunOptions } from './options.js';

export interface RunOutcome {
  report: Report;
  /** Why the run stopped early (the report is then partial); undefined when it completed. */
  stoppedBy?: AnswerEvalError | Error;
}

/** Reads the dataset, asks every question, and scores the answers into a report. */
export async function runEvaluation(options: RunOptions): Promise<RunOutcome> {
  const o = { ...RUN_DEFAULTS, ...options };
  if (o.output !== 'json') throw new ConfigError(`--output ${o.output} cannot be scored yet (only json is)`);
  const endpoint = parseEndpoint(o.baseUrl);
  const dataset = await readDataset(o.dataset);
  const aliases = o.aliases === undefined ? undefined : await readAliases(o.aliases);
  const settings: RequestSettings = {
    agent: o.agent,
    language: o.language,
    guest: o.guest,
    forceSubscription: o.forceSubscription,
    output: o.output,
    ...(o.username !== undefined ? { username: o.username } : {}),
  };
  const questions = o.shard ? dataset.questions.filter((q) => inShard(q.id, o.shard!)) : dataset.questions;
  for (const q of questions) buildRequestBody(q, settings); // fails before anything is sent

  const startedAt = new Date();
  const transport = new Transport({ connections: o.concurrency, timeoutMs: o.timeoutMs, maxResponseBytes: o.maxResponseBytes });
  const ctx: AskContext = {
    transport,
    endpoint,
    agentCode: o.agentCode,
    settings,
    retries: o.retries,
    backoff: o.backoff ?? DEFAULT_BACKOFF,
    ...(o.signal ? { signal: o.signal } : {}),
  };
  let done = 0;
  const total = questions.length;
  const execution = await execute(
    questions,
    async (q, _i, signal) => toResult(q, await ask({ ...ctx, signal }, q), o.language, compileMatcher(q.expected, aliases)),
    { concurrency: o.concurrency, ...(o.signal ? { signal: o.signal } : {}), onResult: () => o.onProgress?.(++done, total) },
  ).finally(() => transport.close());
  const finishedAt = new Date();

  const results = execution.results.filter((r): r is QuestionResult => r !== undefined);
  const stoppedBy = execution.stoppedBy === undefined ? undefined : toError(execution.stoppedBy);
  const report: Report = {
    schemaVersion: SCHEMA_VERSION,
    tool: { name: TOOL_NAME, version: TOOL_VERSION },
    run: {
      startedAt: startedAt.toISOString(),
      finishedAt: finishedAt.toISOString(),
      durationMs: finishedAt.getTime() - startedAt.getTime(),
      status: results.length === total ? 'completed' : 'partial',
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
      },
    },
    summary: summarize(results),
    metrics: computeMetrics(arraySource(results)),
    results,
  };
  return stoppedBy ? { report, stoppedBy } : { report };
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

function toError(reason: unknown): Error {
  if (reason instanceof Error) return reason;
  return new Error(String(reason));
}
