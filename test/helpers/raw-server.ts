import { startLoopback, type Loopback, type Received } from './loopback.js';

/** A request as received: its path and query, headers, and body parsed as JSON ({} when it is not). */
export type RawRequest = Received;

export interface RawReply {
  status?: number;
  headers?: Record<string, string>;
  /** Sent byte for byte: a Buffer as is, a string as UTF-8. */
  body: Buffer | string;
}

export type RawServer = Loopback;

/**
 * A test server on 127.0.0.1 port 0 that answers with exactly the bytes and headers a test gives (no
 * content-type unless given): for charsets, and for hostile services.
 */
export function startRawServer(reply: (req: RawRequest) => RawReply): Promise<RawServer> {
  return startLoopback((r, res) => {
    const { status = 200, headers = {}, body } = reply(r);
    res.writeHead(status, headers);
    res.end(body);
  });
}

/** The question text of a request, e.g. "q3". */
export const questionOf = (req: RawRequest): string => String((req.body['question'] as { text?: string } | undefined)?.text ?? '');
