import type { IncomingMessage } from 'node:http';
import { HttpError } from './respond.js';

/** The bytes a request declares it sends (Content-Length; a chunked body counts as more than any bound); 0 without a body. */
export function declaredBodyBytes(req: IncomingMessage): number {
  if (req.headers['transfer-encoding'] !== undefined) return Number.POSITIVE_INFINITY;
  const length = Number(req.headers['content-length'] ?? 0);
  return Number.isFinite(length) && length >= 0 ? length : Number.POSITIVE_INFINITY;
}

const tooLarge = (maxBytes: number): HttpError => new HttpError(413, `the request body is larger than ${maxBytes} bytes, the most this server reads\n`, { Connection: 'close' });

/**
 * A JSON request body: Content-Type application/json (a form or text/plain is what a page of another site could send
 * without asking), at most `maxBytes` (declared or sent: reading stops there), JSON. Anything else is an HttpError.
 */
export async function readJsonBody(req: IncomingMessage, maxBytes: number): Promise<unknown> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json') throw new HttpError(415, 'expected Content-Type: application/json\n');
  if (declaredBodyBytes(req) > maxBytes && req.headers['transfer-encoding'] === undefined) throw tooLarge(maxBytes);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) throw tooLarge(maxBytes);
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks, size).toString('utf8')) as unknown;
  } catch {
    throw new HttpError(400, 'the request body is not JSON\n');
  }
}
