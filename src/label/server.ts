import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { readJsonBody } from '../local-server/body.js';
import { HttpError, send, sendJson } from '../local-server/respond.js';
import { startLocalServer, type LocalRequest } from '../local-server/server.js';
import { TOKEN_HEADER, type ErrorReply } from '../pages/label/data.js';
import type { LoadOptions } from './load.js';
import { renderLabelPage } from './page.js';
import { LabelSession } from './session.js';

/** The largest request body the label API reads: a decision is a few hundred bytes. */
const MAX_BODY_BYTES = 64 * 1024;

export interface LabelServerOptions extends LoadOptions {
  /** The address to listen on. @default 127.0.0.1 (in the CLI) */
  host: string;
  /** 0: any free port. */
  port: number;
}

/** A running label server. */
export interface LabelServer {
  /** The page's URL, its token in it: what the user opens. */
  url: string;
  session: LabelSession;
  close: () => Promise<void>;
}

/** True when `given` is the token, compared in constant time (both hashed first, so lengths never differ). */
function isToken(given: string | null | undefined, token: string): boolean {
  if (typeof given !== 'string') return false;
  const digest = (s: string): Buffer => createHash('sha256').update(s, 'utf8').digest();
  return timingSafeEqual(digest(given), digest(token));
}

const Id = z.string().min(1).max(100_000);
const BODIES = {
  state: z.object({}).loose(),
  next: z.object({ exclude: z.array(Id).max(1000), count: z.number().int().min(1).max(100) }),
  decide: z.object({
    revision: z.string(),
    id: Id,
    decision: z.discriminatedUnion('kind', [z.object({ kind: z.literal('answer'), sequence: z.number().int() }), z.object({ kind: z.literal('fallback') }), z.object({ kind: z.literal('skip') })]),
  }),
  undo: z.object({ revision: z.string() }),
  figures: z.object({}).loose(),
  kb: z.object({ query: z.string().max(1000) }),
} as const;

type Route = keyof typeof BODIES;

/**
 * Serves the labeling page of a run on the local server (src/local-server/: Host and Origin checked, bodies bounded):
 * a random token (256 bits) in the page's URL, required on every request: in the URL for the page, in the
 * X-Answer-Eval-Token header for the API. The API is POST only, JSON bodies (Content-Type application/json, at most
 * 64 KiB), from the page's own origin (an Origin header is required, and a Sec-Fetch-Site other than same-origin is
 * refused). It writes nothing but the question set and its log (src/label/session.ts).
 */
export async function startLabelServer(o: LabelServerOptions): Promise<LabelServer> {
  const session = await LabelSession.open(o);
  const token = randomBytes(32).toString('base64url');
  const page = renderLabelPage(session.sources.setName);

  /** A request body as its route's schema reads it; a 400 naming the first bad field. */
  const bodyOf = <R extends Route>(route: R, body: unknown): z.infer<(typeof BODIES)[R]> => {
    const parsed = BODIES[route].safeParse(body);
    if (!parsed.success) throw new HttpError(400, `bad request body for ${route}: ${parsed.error.issues[0]!.path.join('.') || '(top level)'}: ${parsed.error.issues[0]!.message}`);
    return parsed.data as z.infer<(typeof BODIES)[R]>;
  };

  const api = async (route: Route, body: unknown): Promise<unknown> => {
    switch (route) {
      case 'state':
        bodyOf(route, body);
        return session.state();
      case 'next': {
        const b = bodyOf(route, body);
        return session.next(b.exclude, b.count);
      }
      case 'decide':
        return session.decide(bodyOf(route, body));
      case 'undo':
        return session.undo(bodyOf(route, body).revision);
      case 'figures':
        bodyOf(route, body);
        return session.figures();
      case 'kb':
        return session.searchKb(bodyOf(route, body).query);
    }
  };

  const handle = async ({ req, res, url, head, requireOrigin }: LocalRequest): Promise<void> => {
    if (url.pathname === '/') {
      if (req.method !== 'GET' && !head) throw new HttpError(405, 'the page is GET only\n', { Allow: 'GET, HEAD' });
      if (!isToken(url.searchParams.get('token'), token)) throw new HttpError(403, 'this page needs its token: open the URL answer-eval label printed\n');
      return send(res, 200, page.html, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': page.csp, 'X-Frame-Options': 'DENY' }, head);
    }
    const route = /^\/api\/([a-z]+)$/.exec(url.pathname)?.[1];
    if (!isToken(req.headers[TOKEN_HEADER.toLowerCase()] as string | undefined, token)) throw new HttpError(403, `every request needs the page's token (${TOKEN_HEADER})\n`);
    if (route === undefined || !(route in BODIES)) throw new HttpError(404, `not found: ${url.pathname.slice(0, 200)}\n`);
    if (req.method !== 'POST') throw new HttpError(405, 'the label API is POST only\n', { Allow: 'POST' });
    requireOrigin();
    const site = req.headers['sec-fetch-site'];
    if (site !== undefined && site !== 'same-origin') throw new HttpError(403, `a request from another site (Sec-Fetch-Site: ${String(site).slice(0, 40)}) is refused\n`);
    try {
      sendJson(res, 200, await api(route as Route, await readJsonBody(req, MAX_BODY_BYTES)));
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      const reply: ErrorReply = { error: error.message.trim(), ...(error.status === 409 ? { conflict: true } : {}) };
      send(res, error.status, JSON.stringify(reply), { ...error.headers, 'Content-Type': 'application/json; charset=utf-8' });
    }
  };

  const server = await startLocalServer({ host: o.host, port: o.port, name: 'answer-eval label', maxBodyBytes: MAX_BODY_BYTES, handle });
  return { url: `${server.url}?token=${token}`, session, close: server.close };
}
