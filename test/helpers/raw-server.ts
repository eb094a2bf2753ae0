import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RawRequest {
  /** The path and query string, as received. */
  url: string;
  headers: IncomingHttpHeaders;
  /** The request body parsed as JSON ({} when it is not). */
  body: Record<string, unknown>;
}

export interface RawReply {
  status?: number;
  headers?: Record<string, string>;
  /** Sent byte for byte: a Buffer as is, a string as UTF-8. */
  body: Buffer | string;
}

export interface RawServer {
  url: string;
  received: RawRequest[];
  close(): Promise<void>;
}

/**
 * A test server on 127.0.0.1 port 0 that answers with exactly the bytes and headers a test gives (no
 * content-type unless given): for charsets, and for hostile services.
 */
export async function startRawServer(reply: (req: RawRequest) => RawReply): Promise<RawServer> {
  const received: RawRequest[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      } catch {
        /* left empty */
      }
      const r: RawRequest = { url: req.url ?? '', headers: req.headers, body };
      received.push(r);
      const { status = 200, headers = {}, body: out } = reply(r);
      res.writeHead(status, headers);
      res.end(out);
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

/** The question text of a request, e.g. "q3". */
export const questionOf = (req: RawRequest): string => String((req.body['question'] as { text?: string } | undefined)?.text ?? '');
