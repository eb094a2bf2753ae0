import { Agent, EnvHttpProxyAgent, type Dispatcher } from 'undici';
import { abortWaiters } from '../util/abort-waiters.js';
import { QuestionError } from '../model/ask-result.js';
import { redactUrlsIn } from './url.js';

export interface TransportOptions {
  /** Keep-alive connections to the service; the run's concurrency. */
  connections: number;
  /** Per attempt, from sending to the last byte of the body. */
  timeoutMs: number;
  /** A larger body is a protocol error, not an out-of-memory. */
  maxResponseBytes: number;
  /** Skip TLS certificate verification (only --insecure sets it, and the CLI says so loudly). */
  insecure?: boolean;
}

export interface HttpReply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The body as received; decodeBody (charset.ts) makes it text. */
  bytes: Buffer;
}

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);

const usesProxy = (env: NodeJS.ProcessEnv): boolean => ['HTTP_PROXY', 'HTTPS_PROXY', 'http_proxy', 'https_proxy'].some((k) => (env[k] ?? '') !== '');

/** How long close() waits for the pool to close gracefully; every attempt has settled by then, see post. */
const CLOSE_GRACE_MS = 1000;

/** One keep-alive pool for the whole run; honours HTTP_PROXY, HTTPS_PROXY and NO_PROXY. */
export class Transport {
  readonly #dispatcher: Dispatcher;
  #url: URL | undefined;
  #href = '';
  #where = { origin: '', path: '' };

  constructor(readonly options: TransportOptions) {
    const settings = { connections: options.connections, keepAliveTimeout: 30_000, connect: { rejectUnauthorized: !options.insecure } };
    // the proxy-aware agent looks at NO_PROXY on every request: only when a proxy is set
    this.#dispatcher = usesProxy(process.env) ? new EnvHttpProxyAgent(settings) : new Agent(settings);
  }

  /**
   * One attempt, through undici's dispatch() with a handler of our own: the body is gathered as it arrives, capped,
   * with no stream, promise race or AbortSignal per request (request() costs more than the rest of the harness
   * here). It always settles, and by the timeout at the latest: a request undici never settles (it rejected a header
   * value and dropped the request, see checkAgentCode) fails as the timeout, and an error of any kind becomes a
   * QuestionError; only the cancel signal's reason passes as it is.
   */
  post(url: URL, body: string, headers: Record<string, string>, signal?: AbortSignal): Promise<HttpReply> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<HttpReply>((resolve, reject) => {
      const cancellable = signal ? abortWaiters(signal) : undefined; // one listener per signal, not one per request
      const attempt = new Attempt(this.options, (error, reply) => {
        cancellable?.delete(attempt.abort);
        if (error !== undefined) reject(error);
        else resolve(reply!);
      });
      cancellable?.add(attempt.abort);
      try {
        const { origin, path } = this.#target(url);
        this.#dispatcher.dispatch({ origin, path, method: 'POST', body, headers }, attempt);
      } catch (error) {
        attempt.fail(error);
      }
    });
  }

  /** Where a URL points, as undici takes it: worked out once per URL (a run posts every question to one). */
  #target(url: URL): { origin: string; path: string } {
    if (url !== this.#url || url.href !== this.#href) {
      this.#url = url;
      this.#href = url.href;
      this.#where = { origin: url.origin, path: `${url.pathname}${url.search}` };
    }
    return this.#where;
  }

  /**
   * Closes the pool once the requests in flight are done. A request undici dropped without settling (see
   * post) would hold a graceful close forever, so after CLOSE_GRACE_MS the pool is destroyed instead.
   */
  async close(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const closed = this.#dispatcher.close().then(() => true, () => true);
    const waited = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), CLOSE_GRACE_MS)));
    const graceful = await Promise.race([closed, waited]);
    clearTimeout(timer);
    if (!graceful) await this.#dispatcher.destroy();
  }
}

/** One attempt's undici handler: gathers the body up to the cap, and settles exactly once (see Transport.post). */
class Attempt implements Dispatcher.DispatchHandler {
  #controller: Dispatcher.DispatchController | undefined;
  #reason: unknown;
  #status = 0;
  #headers: HttpReply['headers'] = {};
  #chunks: Buffer[] = [];
  #size = 0;
  #settled = false;
  readonly #timer: NodeJS.Timeout;

  constructor(
    private readonly options: TransportOptions,
    private readonly settle: (error: unknown, reply?: HttpReply) => void,
  ) {
    this.#timer = setTimeout(() => this.abort(new QuestionError('timeout', `no response within ${options.timeoutMs} ms`)), options.timeoutMs);
  }

  /** Gives up the attempt now, for `reason` (the timeout, the cap, or the cancel signal's reason). */
  readonly abort = (reason: unknown): void => {
    this.#reason ??= reason;
    this.#controller?.abort(reason as Error);
    this.#done(this.#reason);
  };

  /** undici failed the attempt (or threw before it started). */
  fail(error: unknown): void {
    this.#done(this.#reason ?? toNetworkError(error));
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.#controller = controller;
    if (this.#reason !== undefined) controller.abort(this.#reason as Error);
  }

  onResponseStart(_controller: Dispatcher.DispatchController, status: number, headers: HttpReply['headers']): void {
    this.#status = status;
    this.#headers = headers;
    const length = headers['content-length'];
    if (typeof length === 'string' && Number(length) > this.options.maxResponseBytes) this.abort(this.#tooLarge());
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.#size += chunk.length;
    if (this.#size > this.options.maxResponseBytes) this.abort(this.#tooLarge());
    else this.#chunks.push(chunk);
  }

  onResponseEnd(): void {
    if (this.#settled) return;
    this.#settled = true;
    clearTimeout(this.#timer);
    const bytes = this.#chunks.length === 1 ? this.#chunks[0]! : Buffer.concat(this.#chunks, this.#size);
    this.settle(undefined, { status: this.#status, headers: this.#headers, bytes });
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    this.fail(error);
  }

  #tooLarge(): QuestionError {
    return new QuestionError('protocol', `the response body is larger than ${this.options.maxResponseBytes} bytes (--max-response-bytes)`);
  }

  #done(error: unknown): void {
    if (this.#settled) return;
    this.#settled = true;
    clearTimeout(this.#timer);
    this.#chunks = [];
    this.settle(error);
  }
}

/** undici's error (or the system's under it) in words; it is kept as the cause, for whoever debugs. */
function toNetworkError(error: unknown): QuestionError {
  const e = error as { code?: string; message?: string; reason?: string; cause?: { code?: string; message?: string; reason?: string } };
  const code = e.cause?.code ?? e.code;
  if (code?.startsWith('ERR_SSL_')) return new QuestionError('network', tlsFailure(code, e.cause?.reason ?? e.reason), { code, cause: error });
  const detail = redactUrlsIn(e.cause?.message ?? e.message ?? String(error));
  if (code && (NETWORK_CODES.has(code) || code.startsWith('UND_ERR'))) return new QuestionError('network', `${code}: ${detail}`, { code, cause: error });
  return new QuestionError('network', detail, { code, cause: error });
}

/**
 * An OpenSSL failure in words, for its raw text (`801C...:error:0A00010B:SSL routines:...:ssl3_record.c:350`)
 * speaks to nobody: its short reason, and the likely cause of the commonest, an https:// URL on a plain-http port.
 */
export function tlsFailure(code: string, reason: string | undefined): string {
  const why = reason ?? code.slice('ERR_SSL_'.length).toLowerCase().replace(/_/g, ' ');
  const hint = why === 'wrong version number' ? ': is the service http:// rather than https://?' : '';
  return `TLS handshake failed (${why})${hint}`;
}
