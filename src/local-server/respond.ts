import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';

/** A refusal a handler throws: its status, what the reply says (plain text), and headers (`Allow`). */
export class HttpError extends Error {
  override name = 'HttpError';
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** Every reply: no type sniffing, no referrer (a URL may hold a token), no cache, no framing by another site. */
export const COMMON_HEADERS = { 'X-Content-Type-Options': 'nosniff', 'Referrer-Policy': 'no-referrer', 'Cache-Control': 'no-cache', 'X-Frame-Options': 'SAMEORIGIN' };

/**
 * Every file served from a directory: as a page, it runs in a sandbox with an origin of its own (scripts run, but it
 * cannot read anything else the server serves, nor its storage), as a `file://` page would.
 */
export const SANDBOX_CSP = 'sandbox allow-scripts';

/** `'sha256-…'` of an inline script or style, for a Content-Security-Policy. */
export const cspHash = (text: string): string => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/**
 * The policy of a page of the server's own: nothing but its inline style and script (by hash), requests only to
 * itself (`connect` true), no form, no base, never framed.
 */
export function strictCsp(o: { style?: string; script?: string; connect?: boolean }): string {
  return [
    "default-src 'none'",
    ...(o.style !== undefined ? [`style-src ${cspHash(o.style)}`] : []),
    ...(o.script !== undefined ? [`script-src ${cspHash(o.script)}`] : []),
    ...(o.connect ? ["connect-src 'self'"] : []),
    'img-src data:',
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** A whole reply; with `head`, its headers only. */
export function send(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}, head = false): void {
  res.writeHead(status, { ...COMMON_HEADERS, 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': Buffer.byteLength(body), ...headers });
  res.end(head ? undefined : body);
}

/** A JSON reply. */
export const sendJson = (res: ServerResponse, status: number, value: unknown): void => send(res, status, JSON.stringify(value), { 'Content-Type': 'application/json; charset=utf-8' });
