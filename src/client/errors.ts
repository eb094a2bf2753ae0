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

export class QuestionError extends Error {
  override name = 'QuestionError';
  constructor(
    readonly kind: ErrorKind,
    message: string,
    readonly status?: number,
    /** Seconds or an HTTP date from a Retry-After header. */
    readonly retryAfter?: string,
    /** A network error's code (ECONNREFUSED, ENOTFOUND, ...), when known. */
    readonly code?: string,
  ) {
    super(message);
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
