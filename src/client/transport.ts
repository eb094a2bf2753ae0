import { EnvHttpProxyAgent, request, type Dispatcher } from 'undici';
import { QuestionError } from './errors.js';
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

/** How long close() waits for the pool to close gracefully; every attempt has settled by then, see post. */
const CLOSE_GRACE_MS = 1000;

/** One keep-alive pool for the whole run; honours HTTP_PROXY, HTTPS_PROXY and NO_PROXY. */
export class Transport {
  readonly #dispatcher: Dispatcher;
  /** Attempts in flight, by the signal that may cancel them: one listener per signal, not one per request. */
  readonly #inFlight = new Map<AbortSignal, Set<(reason: unknown) => void>>();

  constructor(readonly options: TransportOptions) {
    this.#dispatcher = new EnvHttpProxyAgent({
      connections: options.connections,
      keepAliveTimeout: 30_000,
      connect: { rejectUnauthorized: !options.insecure },
    });
  }

  /**
   * One attempt. It always settles, and by the timeout at the latest: a request undici never settles (it
   * rejected a header value, and dropped the request, see checkAgentCode) fails as the timeout, and an error
   * of any kind becomes a QuestionError; only the cancel signal's reason passes as it is.
   */
  async post(url: URL, body: string, headers: Record<string, string>, signal?: AbortSignal): Promise<HttpReply> {
    // a plain controller and timer: AbortSignal.timeout/any cost more than the rest of the request here
    const controller = new AbortController();
    let timedOut = false;
    let giveUp!: (reason: unknown) => void;
    const givenUp = new Promise<never>((_, reject) => (giveUp = reject));
    givenUp.catch(() => {}); // raced below; only ever read there
    const abort = (reason: unknown): void => {
      controller.abort(reason);
      giveUp(reason);
    };
    const timer = setTimeout(() => {
      timedOut = true;
      abort(new QuestionError('timeout', `no response within ${this.options.timeoutMs} ms`));
    }, this.options.timeoutMs);
    const cancellable = signal ? this.#watch(signal) : undefined;
    cancellable?.add(abort);
    try {
      if (signal?.aborted) throw signal.reason;
      const res = await Promise.race([request(url, { method: 'POST', body, headers, signal: controller.signal, dispatcher: this.#dispatcher }), givenUp]);
      const bytes = await Promise.race([readCapped(res.body, res.headers['content-length'], this.options.maxResponseBytes), givenUp]);
      return { status: res.statusCode, headers: res.headers, bytes };
    } catch (error) {
      if (error instanceof QuestionError) throw error;
      if (signal?.aborted) throw signal.reason ?? error;
      if (timedOut) throw new QuestionError('timeout', `no response within ${this.options.timeoutMs} ms`);
      throw toNetworkError(error);
    } finally {
      clearTimeout(timer);
      cancellable?.delete(abort);
    }
  }

  #watch(signal: AbortSignal): Set<(reason: unknown) => void> {
    let set = this.#inFlight.get(signal);
    if (set === undefined) {
      const attempts = (set = new Set());
      this.#inFlight.set(signal, attempts);
      signal.addEventListener('abort', () => {
        for (const abort of attempts) abort(signal.reason);
      }, { once: true });
    }
    return set;
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

async function readCapped(body: Dispatcher.ResponseData['body'], length: string | string[] | undefined, max: number): Promise<Buffer> {
  const tooLarge = () => new QuestionError('protocol', `the response body is larger than ${max} bytes (--max-response-bytes)`);
  if (typeof length === 'string') {
    if (Number(length) > max) {
      body.destroy();
      throw tooLarge();
    }
    return Buffer.from(await body.arrayBuffer()); // undici stops at the declared length
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    body.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= max) chunks.push(chunk);
      else body.destroy(tooLarge());
    });
    body.on('error', reject);
    body.on('end', () => resolve(Buffer.concat(chunks, size)));
    body.on('close', () => reject(new QuestionError('network', 'the connection closed before the end of the body')));
  });
}

function toNetworkError(error: unknown): QuestionError {
  const e = error as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = e.cause?.code ?? e.code;
  const detail = redactUrlsIn(e.cause?.message ?? e.message ?? String(error));
  if (code && (NETWORK_CODES.has(code) || code.startsWith('UND_ERR'))) return new QuestionError('network', `${code}: ${detail}`);
  return new QuestionError('network', detail);
}
