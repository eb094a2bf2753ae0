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
  body: string;
}

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);

/** One keep-alive pool for the whole run; honours HTTP_PROXY, HTTPS_PROXY and NO_PROXY. */
export class Transport {
  readonly #dispatcher: Dispatcher;
  /** Attempts in flight, by the signal that may cancel them: one listener per signal, not one per request. */
  readonly #inFlight = new Map<AbortSignal, Set<AbortController>>();

  constructor(readonly options: TransportOptions) {
    this.#dispatcher = new EnvHttpProxyAgent({
      connections: options.connections,
      keepAliveTimeout: 30_000,
      connect: { rejectUnauthorized: !options.insecure },
    });
  }

  async post(url: URL, body: string, headers: Record<string, string>, signal?: AbortSignal): Promise<HttpReply> {
    // a plain controller and timer: AbortSignal.timeout/any cost more than the rest of the request here
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, this.options.timeoutMs);
    const cancellable = signal ? this.#watch(signal) : undefined;
    cancellable?.add(controller);
    try {
      if (signal?.aborted) throw signal.reason;
      const res = await request(url, { method: 'POST', body, headers, signal: controller.signal, dispatcher: this.#dispatcher });
      const text = await readCapped(res.body, res.headers['content-length'], this.options.maxResponseBytes);
      return { status: res.statusCode, headers: res.headers, body: text };
    } catch (error) {
      if (error instanceof QuestionError) throw error;
      if (signal?.aborted) throw signal.reason ?? error;
      if (timedOut) throw new QuestionError('timeout', `no response within ${this.options.timeoutMs} ms`);
      throw toNetworkError(error);
    } finally {
      clearTimeout(timer);
      cancellable?.delete(controller);
    }
  }

  #watch(signal: AbortSignal): Set<AbortController> {
    let set = this.#inFlight.get(signal);
    if (set === undefined) {
      const controllers = (set = new Set());
      this.#inFlight.set(signal, controllers);
      signal.addEventListener('abort', () => {
        for (const c of controllers) c.abort(signal.reason);
      }, { once: true });
    }
    return set;
  }

  close(): Promise<void> {
    return this.#dispatcher.close();
  }
}

async function readCapped(body: Dispatcher.ResponseData['body'], length: string | string[] | undefined, max: number): Promise<string> {
  const tooLarge = () => new QuestionError('protocol', `the response body is larger than ${max} bytes (--max-response-bytes)`);
  if (typeof length === 'string') {
    if (Number(length) > max) {
      body.destroy();
      throw tooLarge();
    }
    return body.text(); // undici stops at the declared length
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
    body.on('end', () => resolve(Buffer.concat(chunks, size).toString('utf8')));
  });
}

function toNetworkError(error: unknown): QuestionError {
  const e = error as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = e.cause?.code ?? e.code;
  const detail = redactUrlsIn(e.cause?.message ?? e.message ?? String(error));
  if (code && (NETWORK_CODES.has(code) || code.startsWith('UND_ERR'))) return new QuestionError('network', `${code}: ${detail}`);
  return new QuestionError('network', detail);
}
