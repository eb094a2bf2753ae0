import { NotAuthorizedError } from '../errors.js';
import type { Question } from '../model/question.js';
import { RETRY_AFTER_CAP_MS, retryAfterMs, retryWaitMs, type BackoffOptions } from './backoff.js';
import { decodeBody } from './charset.js';
import { QuestionError } from './errors.js';
import { requestBody, type RequestSettings } from './request.js';
import { excerpt, parseAnswerResponse, type AnswerResponse, type ParsedResponse } from './response.js';
import { holdsSecret, maskSecret } from './secret.js';
import { sleep } from './sleep.js';
import type { Throttle } from './throttle.js';
import type { HttpReply, Transport } from './transport.js';
import { basicAuth, redactUrl } from './url.js';

export interface AskContext {
  transport: Transport;
  /** Where to POST; a `user:password@` in it is sent as Basic auth (see basicAuth). */
  endpoint: URL;
  /** The agent's secret code, sent as the wikiclone_code header and nowhere else. */
  agentCode: string;
  settings: RequestSettings;
  /** Retries after the first attempt for network errors, timeouts, 429 and 5xx (see `retryOn`). */
  retries: number;
  /**
   * What may be retried: `transient` failures (network errors, timeouts, 429, 5xx), or only those of a request that
   * cannot have reached the service (`unsent`: connection refused, DNS), for a turn of a conversation. @default 'transient'
   */
  retryOn?: 'transient' | 'unsent';
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
  const authorization = basicAuth(ctx.endpoint);
  const headers = { 'content-type': 'application/json; charset=UTF-8', wikiclone_code: ctx.agentCode, ...(authorization ? { authorization } : {}) };
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
      if (reply.status === 404) throw new NotAuthorizedError(redactUrl(ctx.endpoint), ctx.settings.agent);
      if (reply.status === 200) {
        const parsed = parseReply(reply, ctx.agentCode);
        if (parsed.ok) return { ok: true, response: parsed.response, attempts, latencyMs };
        return { ok: false, error: scrub(new QuestionError('protocol', parsed.message), ctx.agentCode), attempts, latencyMs };
      }
      const retryAfter = reply.headers['retry-after'];
      error = new QuestionError('http', statusMessage(reply, ctx), reply.status, typeof retryAfter === 'string' ? retryAfter : undefined);
    } catch (thrown) {
      if (!(thrown instanceof QuestionError)) throw thrown;
      error = thrown;
      latencyMs = null;
    }
    error = scrub(error, ctx.agentCode);
    const retryAfter = retryAfterMs(error.retryAfter);
    const waitMs = retryWaitMs(attempts - 1, ctx.backoff, retryAfter);
    const retrying = (ctx.retryOn === 'unsent' ? error.unsent : error.retryable) && attempts <= ctx.retries;
    if (retrying) ctx.onRetry?.(question, error, waitMs);
    // the service is overloaded: the whole run slows down, not only this question. Everyone pauses for what
    // the service asked; this question's own backoff (jittered, and longer on later retries) is its own
    if (error.status === 429 || (error.status === 503 && retryAfter !== undefined)) {
      ctx.throttle?.throttled(retryAfter === undefined ? waitMs : Math.min(retryAfter, RETRY_AFTER_CAP_MS));
    }
    if (!retrying) return { ok: false, error, attempts, latencyMs };
    await sleep(waitMs, ctx.signal);
  }
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** A status other than 200 and 404 in words: a redirect says where it points (nothing follows it), any other quotes its body. */
function statusMessage(reply: HttpReply, ctx: AskContext): string {
  const from = `HTTP ${reply.status} from ${redactUrl(ctx.endpoint)}`;
  const location = reply.headers['location'];
  if (REDIRECTS.has(reply.status) && typeof location === 'string') {
    return `${from} (redirects to ${redactLocation(location, ctx.endpoint)}): answer-eval does not follow redirects; use the address it points to as --base-url`;
  }
  const text = maskSecret(decodeBody(reply.bytes, contentType(reply, ctx.agentCode), false), ctx.agentCode);
  return `${from}${text ? `: ${JSON.stringify(excerpt(text))}` : ''}`;
}

/** A Location, relative to the endpoint, redacted like any URL. */
function redactLocation(location: string, endpoint: URL): string {
  try {
    return redactUrl(new URL(location, endpoint));
  } catch {
    return '<invalid url>';
  }
}

/**
 * The answers of a 200, decoded by its charset. They are judged as the service wrote them: a code that is also a
 * word of the knowledge base (`bill`) must not turn a right answer wrong. The result is masked before it is stored
 * (src/run/run.ts). A body that breaks the spec is masked before its message quotes and cuts it.
 */
function parseReply(reply: HttpReply, agentCode: string): ParsedResponse {
  let text: string;
  try {
    text = decodeBody(reply.bytes, contentType(reply, agentCode), true);
  } catch (error) {
    if (error instanceof QuestionError) return { ok: false, message: error.message };
    throw error;
  }
  const parsed = parseAnswerResponse(text);
  if (parsed.ok || !holdsSecret(text, agentCode)) return parsed;
  const masked = parseAnswerResponse(maskSecret(text, agentCode));
  return masked.ok ? { ok: false, message: maskSecret(parsed.message, agentCode) } : masked;
}

/** The content-type, masked too: an error naming its charset must not quote the code, nor a piece of it. */
function contentType(reply: HttpReply, agentCode: string): string | undefined {
  const header = reply.headers['content-type'];
  const value = Array.isArray(header) ? header[0] : header;
  return value === undefined ? undefined : maskSecret(value, agentCode);
}

/** The longest error message a report keeps (an excerpt of a body is shorter; this bounds what else may come). */
export const MAX_ERROR_CHARS = 500;

/**
 * The error as the report keeps it: the agent code masked (a transport error or a header may hold it too),
 * then cut to MAX_ERROR_CHARS. In that order, so a cut never keeps the start of a code.
 */
function scrub(error: QuestionError, agentCode: string): QuestionError {
  let message = maskSecret(error.message, agentCode);
  if (message.length > MAX_ERROR_CHARS) message = `${message.slice(0, MAX_ERROR_CHARS)}… (cut)`;
  if (message === error.message) return error;
  return new QuestionError(error.kind, message, error.status, error.retryAfter, error.code);
}
