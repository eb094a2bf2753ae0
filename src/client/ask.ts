import { setTimeout as sleep } from 'node:timers/promises';
import { NotAuthorizedError } from '../errors.js';
import type { Question } from '../model/question.js';
import { retryAfterMs, retryWaitMs, type BackoffOptions } from './backoff.js';
import { QuestionError } from './errors.js';
import { requestBody, type RequestSettings } from './request.js';
import { excerpt, parseAnswerResponse, type AnswerResponse } from './response.js';
import { holdsSecret, maskSecret } from './secret.js';
import type { Throttle } from './throttle.js';
import type { Transport } from './transport.js';
import { redactUrl } from './url.js';

export interface AskContext {
  transport: Transport;
  endpoint: URL;
  /** The agent's secret code, sent as the wikiclone_code header and nowhere else. */
  agentCode: string;
  settings: RequestSettings;
  /** Retries after the first attempt for network errors, timeouts, 429 and 5xx. */
  retries: number;
  backoff: BackoffOptions;
  /** Stops before the next attempt (and during a backoff wait): nothing more is sent for this question. */
  signal?: AbortSignal;
  /** Aborts the attempt in flight (the grace period after an interrupt ran out). */
  cancel?: AbortSignal;
  /** Shared by every worker: --rps and the pause after a 429. */
  throttle?: Throttle;
  /** Told of every wait before a retry, e.g. for the progress line. */
  onRetry?: (question: Question, error: QuestionError, waitMs: number) => void;
}

export type AskResult =
  | { ok: true; response: AnswerResponse; attempts: number; latencyMs: number }
  | { ok: false; error: QuestionError; attempts: number; latencyMs: number | null };

/**
 * Asks one question, retrying what may pass. A 404 throws NotAuthorizedError (the run must stop);
 * every other failure comes back as a QuestionError for this question only.
 */
export async function ask(ctx: AskContext, question: Question): Promise<AskResult> {
  const body = JSON.stringify(requestBody(question, ctx.settings));
  const headers = { 'content-type': 'application/json; charset=UTF-8', wikiclone_code: ctx.agentCode };
  let attempts = 0;
  let latencyMs: number | null = null;
  for (;;) {
    ctx.signal?.throwIfAborted();
    const gate = ctx.throttle?.acquire(ctx.signal);
    if (gate) await gate;
    attempts++;
    const started = performance.now();
    let error: QuestionError;
    try {
      const reply = await ctx.transport.post(ctx.endpoint, body, headers, ctx.cancel);
      latencyMs = performance.now() - started;
      if (reply.status === 200) {
        const parsed = parseAnswerResponse(reply.body);
        if (parsed.ok) return { ok: true, response: parsed.response, attempts, latencyMs };
        return { ok: false, error: scrub(new QuestionError('protocol', parsed.message), ctx.agentCode), attempts, latencyMs };
      }
      if (reply.status === 404) throw new NotAuthorizedError(redactUrl(ctx.endpoint), ctx.settings.agent);
      const retryAfter = reply.headers['retry-after'];
      error = new QuestionError(
        'http',
        `HTTP ${reply.status} from ${redactUrl(ctx.endpoint)}${reply.body ? `: ${JSON.stringify(excerpt(reply.body))}` : ''}`,
        reply.status,
        typeof retryAfter === 'string' ? retryAfter : undefined,
      );
    } catch (thrown) {
      if (!(thrown instanceof QuestionError)) throw thrown;
      error = thrown;
      latencyMs = null;
    }
    const retryAfter = retryAfterMs(error.retryAfter);
    const waitMs = retryWaitMs(attempts - 1, ctx.backoff, retryAfter);
    const retrying = error.retryable && attempts <= ctx.retries;
    if (retrying) ctx.onRetry?.(question, error, waitMs);
    // the service is overloaded: the whole run slows down, not only this question
    if (error.status === 429 || (error.status === 503 && retryAfter !== undefined)) ctx.throttle?.throttled(waitMs);
    if (!retrying) return { ok: false, error: scrub(error, ctx.agentCode), attempts, latencyMs };
    await sleep(waitMs, undefined, { signal: ctx.signal });
  }
}

/** A service that echoes request headers into an error page must not put the agent code in a report. */
function scrub(error: QuestionError, agentCode: string): QuestionError {
  if (!holdsSecret(error.message, agentCode)) return error;
  return new QuestionError(error.kind, maskSecret(error.message, agentCode), error.status, error.retryAfter);
}
