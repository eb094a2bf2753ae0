import { startSpecServer, type Reply, type SpecServer } from './spec-server.js';

/** A service as a nightly job sees it: one URL, whatever answers behind it. */
export interface FrontServer extends SpecServer {
  /** The engine that answers from now on (its base URL and agent code). */
  target: { url: string; code: string } | undefined;
}

/**
 * A spec server on a stable URL that answers some questions itself (`own`: by question text, e.g. a top-1 that
 * alternates from night to night; it may take its time, e.g. to hold a request) and forwards every other request, as it came, to the engine in `target`
 * (replies and injected faults alike; a connection the engine drops is dropped again).
 */
export async function startFrontServer(own: (text: string) => Reply | undefined | Promise<Reply | undefined>): Promise<FrontServer> {
  const state: { target: FrontServer['target'] } = { target: undefined };
  const server = await startSpecServer(async (req) => {
    const text = (req.body['question'] as { text?: string } | undefined)?.text ?? '';
    const mine = await own(text);
    if (mine) return mine;
    const target = state.target;
    if (!target) return { status: 503, body: { error: 'no engine behind the front server' } };
    try {
      const res = await fetch(`${target.url}/api/v1/answer`, {
        method: 'POST',
        headers: { 'content-type': String(req.headers['content-type'] ?? 'application/json'), wikiclone_code: target.code },
        body: req.raw,
      });
      const retryAfter = res.headers.get('retry-after');
      return { status: res.status, body: await res.text(), ...(retryAfter ? { headers: { 'retry-after': retryAfter } } : {}) };
    } catch {
      return { reset: true };
    }
  });
  return Object.defineProperty(server, 'target', { get: () => state.target, set: (t: FrontServer['target']) => (state.target = t), enumerable: true }) as FrontServer;
}
