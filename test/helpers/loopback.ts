import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request as a test server received it. */
export interface Received {
  /** The path and query string, as received. */
  url: string;
  headers: IncomingHttpHeaders;
  /** The body parsed as JSON ({} when it is not). */
  body: Record<string, unknown>;
  /** The body as text. */
  raw: string;
  /** performance.now() when the request arrived. */
  at: number;
}

export interface Loopback {
  url: string;
  /** Every request so far, in the order they arrived. */
  received: Received[];
  close(): Promise<void>;
}

/**
 * A test server on 127.0.0.1 port 0 (unref'd: it never holds the process) that reads each request whole, keeps it in
 * `received`, and leaves the reply to `answer`; close() drops every connection first. The test servers are built on it.
 */
export async function startLoopback(answer: (received: Received, res: ServerResponse, req: IncomingMessage) => void | Promise<void>): Promise<Loopback> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(raw) as Record<string, unknown>;
      } catch {
        /* kept raw */
      }
      const r: Received = { url: req.url ?? '', headers: req.headers, body, raw, at: performance.now() };
      received.push(r);
      void answer(r, res, req);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  server.unref();
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
