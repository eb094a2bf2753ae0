import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { declaredBodyBytes } from './body.js';
import { allowedHosts, allowedOrigins, authority } from './hosts.js';
import { HttpError, send } from './respond.js';

/** A request as a handler gets it: its URL (path and query) and the checks already passed. */
export interface LocalRequest {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  /** True for HEAD: reply with headers only. */
  head: boolean;
  /** Refuses (403) a request without an Origin header of this server: anything that changes something must come from its page. */
  requireOrigin: () => void;
}

export interface LocalServerOptions {
  /** The address to listen on (127.0.0.1 by default in every command). */
  host: string;
  /** 0: any free port. */
  port: number;
  /** How replies name the server: `answer-eval view`. */
  name: string;
  /** The largest request body any route reads; a request declaring more is refused before it is read. @default 0 */
  maxBodyBytes?: number;
  handle: (request: LocalRequest) => Promise<void>;
}

/** A running local server. */
export interface LocalServer {
  /** e.g. `http://127.0.0.1:9840/` */
  url: string;
  close: () => Promise<void>;
}

/**
 * A local HTTP server with the checks every server of answer-eval needs before a handler sees a request: the Host
 * header must name exactly one of the names it listens on, with its port (421 otherwise: a page of another site
 * reaching it through DNS rebinding, a name that merely starts with 127.); an Origin header, when there is one, must
 * be its own (403: a page of another site, or a sandboxed page, `null`); a body no larger than `maxBodyBytes` (413).
 * A handler throws HttpError to refuse; anything else is a 500 that says nothing of the cause.
 */
export async function startLocalServer(o: LocalServerOptions): Promise<LocalServer> {
  let hosts = new Set<string>();
  let origins = new Set<string>();
  const maxBody = o.maxBodyBytes ?? 0;

  const guard = (req: IncomingMessage): void => {
    const host = req.headers.host?.trim().toLowerCase();
    if (host === undefined || !hosts.has(host)) throw new HttpError(421, `${o.name} answers only to ${[...hosts].join(', ')}: this request names ${host === undefined ? 'no host' : JSON.stringify(host.slice(0, 100))}\n`);
    const origin = req.headers.origin;
    if (origin !== undefined && !origins.has(origin.toLowerCase())) throw new HttpError(403, `${o.name} answers only to its own pages: a request from ${JSON.stringify(origin.slice(0, 100))} is refused\n`);
    if (declaredBodyBytes(req) > maxBody) throw new HttpError(413, maxBody === 0 ? `${o.name} reads no request body\n` : `the request body is larger than ${maxBody} bytes, the most ${o.name} reads\n`, { Connection: 'close' });
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const head = req.method === 'HEAD';
    try {
      guard(req);
      let url: URL;
      try {
        url = new URL(req.url ?? '/', 'http://local');
      } catch {
        throw new HttpError(400, 'bad request\n');
      }
      const requireOrigin = (): void => {
        if (req.headers.origin === undefined) throw new HttpError(403, `${o.name}: a request that changes something must come from its page (no Origin header)\n`);
      };
      await o.handle({ req, res, url, head, requireOrigin });
    } catch (error) {
      if (res.headersSent) return void res.destroy();
      if (error instanceof HttpError) return send(res, error.status, error.message, error.headers, head);
      send(res, 500, `${o.name} could not answer that\n`, {}, head);
    }
  };

  const server = createServer((req, res) => void handle(req, res));
  // a client that sends its headers or body slowly holds no connection for long
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  hosts = allowedHosts(o.host, port);
  origins = allowedOrigins(hosts);
  return {
    url: `http://${authority(o.host, port)}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
