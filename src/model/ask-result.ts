import type { AnswerResponse } from './answer.js';
import type { Output, RowRequest } from './request-fields.js';

// What asking one question gives back: the contract between the client (src/client/ask.ts makes it) and the stages
// after it (the run and the score stage judge it, rescore makes it again from a report), so that none imports another.

/**
 * What went wrong with one question, apart from its answer's quality: an error is never a wrong answer.
 * - `network`: connection refused, reset or dropped
 * - `timeout`: no complete response within --timeout
 * - `http`: a status other than 200 (404 aside, which stops the run)
 * - `protocol`: a 200 whose body is not JSON, breaks the response schema, or is too large
 */
export type ErrorKind = 'network' | 'timeout' | 'http' | 'protocol';

/**
 * Network error codes of a request that cannot have reached the service: the connection was refused or never
 * made, or the host name did not resolve. Anything later (a reset, a timeout, a status) may have been served.
 */
const UNSENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

/** What a QuestionError may say besides its kind and message. */
export interface QuestionErrorDetails {
  /** The HTTP status, of an `http` error. */
  status?: number | undefined;
  /** Seconds or an HTTP date from a Retry-After header. */
  retryAfter?: string | undefined;
  /** A network error's code (ECONNREFUSED, ENOTFOUND, ...), when known. */
  code?: string | undefined;
  /** The error it was made from (undici's, the system's, a decoder's), for whoever debugs: no report keeps it. */
  cause?: unknown;
}

export class QuestionError extends Error {
  override name = 'QuestionError';
  readonly status: number | undefined;
  readonly retryAfter: string | undefined;
  readonly code: string | undefined;

  constructor(
    readonly kind: ErrorKind,
    message: string,
    details: QuestionErrorDetails = {},
  ) {
    super(message, details); // a cause only when details has one
    this.status = details.status;
    this.retryAfter = details.retryAfter;
    this.code = details.code;
  }

  /** Network errors, timeouts, 429 and 5xx may pass; other answers will not change by asking again. */
  get retryable(): boolean {
    if (this.kind === 'network' || this.kind === 'timeout') return true;
    return this.kind === 'http' && this.status !== undefined && (this.status === 429 || this.status >= 500);
  }

  /**
   * The request cannot have reached the service (connection refused, DNS): asking again cannot make the service
   * see it twice. The only failure a turn of a conversation is retried on, since a turn seen twice may move its
   * dialogue on twice.
   */
  get unsent(): boolean {
    return this.kind === 'network' && this.code !== undefined && UNSENT_CODES.has(this.code);
  }
}

/**
 * A non-json reply as a result keeps it for its reader: the output, and the body with its secrets masked, then cut to
 * MAX_KEPT_BODY_CHARS of src/client/outputs.ts (`cut`). `withheld`: the answers read from the body held a secret that
 * no search of its text finds (a reference only a full HTML reader decodes): it is not kept (the answers read from it are masked).
 */
export interface KeptReply {
  output: Exclude<Output, 'json'>;
  body?: string;
  cut?: true;
  withheld?: true;
}

/** What every AskResult may carry: the request fields sent otherwise than the run's (`sent`), a non-json reply (`reply`). */
export interface Asked {
  sent?: RowRequest;
  reply?: KeptReply;
}

export type AskResult = Asked &
  (
    /**
     * `response` as the service sent it, to be judged; `shown`, when the reply echoed a secret back, the same response
     * with the secrets masked, to be kept (src/score/result.ts).
     */
    | { ok: true; response: AnswerResponse; shown?: AnswerResponse; attempts: number; latencyMs: number }
    | { ok: false; error: QuestionError; attempts: number; latencyMs: number | null }
  );
