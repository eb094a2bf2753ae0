/**
 * What went wrong with one question, apart from its answer's quality: an error is never a wrong answer.
 * - `network`: connection refused, reset or dropped
 * - `timeout`: no complete response within --timeout
 * - `http`: a status other than 200 (404 aside, which stops the run)
 * - `protocol`: a 200 whose body is not JSON, breaks the response schema, or is too large
 */
export type ErrorKind = 'network' | 'timeout' | 'http' | 'protocol';

export class QuestionError extends Error {
  override name = 'QuestionError';
  constructor(
    readonly kind: ErrorKind,
    message: string,
    readonly status?: number,
    /** Seconds or an HTTP date from a Retry-After header. */
    readonly retryAfter?: string,
  ) {
    super(message);
  }

  /** Network errors, timeouts, 429 and 5xx may pass; other answers will not change by asking again. */
  get retryable(): boolean {
    if (this.kind === 'network' || this.kind === 'timeout') return true;
    return this.kind === 'http' && this.status !== undefined && (this.status === 429 || this.status >= 500);
  }
}
