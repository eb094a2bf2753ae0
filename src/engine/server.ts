import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import type { AnswerResponse, Thresholds } from './respond.js';
import { isProblem, parseAnswerRequest, type AnswerRequest } from './request.js';
import { render, type Rendered } from './render.js';
import type { Sessions } from './session.js';
import type { FollowUps } from './dialogue.js';
import { takeTurn } from './turn.js';
import { malformedBody, OVERSIZE_BYTES, type FaultPlanner } from './faults.js';
import type { Ranked, Retriever } from './retrieval.js';

/** Largest accepted request body; a larger one gets 413. */
export const MAX_BODY_BYTES = 64 * 1024;

export const ANSWER_PATH = '/api/v1/answer';

export interface HandlerConfig {
  retriever: Retriever;
  /** The follow-ups of each dialogue step. */
  followUps: FollowUps;
  /** Per-user state: open dialogues, questions asked. */
  sessions: Sessions;
  agent: string;
  code: string;
  thresholds: Thresholds;
  /** Called once per answer request with the question text (or, when the body has none, the raw body). */
  planFaults: FaultPlanner;
  /** Counters the server adds to. */
  stats: EngineStats;
}

/** Kinds of injected faults counted in EngineStats (latency is not a fault of its own). */
export const FAULT_KINDS = ['error', 'malformed', 'reset', 'throttle', 'oversize'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface EngineStats {
  /** POST requests to the answer path, whatever came of them. */
  requests: number;
  /** Faults actually injected, by kind (a malformed or oversized fault planned for a request rejected with 400 is not). */
  faults: Record<FaultKind, number>;
}

export const emptyStats = (): EngineStats => ({ requests: 0, faults: { error: 0, malformed: 0, reset: 0, throttle: 0, oversize: 0 } });

/** The key of the fault decisions: the question's text when the body holds one, else the raw body. */
function faultKey(body: unknown, raw: string): string {
  if (typeof body === 'object' && body !== null) {
    const question: unknown = (body as { question?: unknown }).question;
    if (typeof question === 'object' && question !== null) {
      const text: unknown = (question as { text?: unknown }).text;
      if (typeof text === 'string') return text;
    }
  }
  return raw;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent || res.destroyed) return;
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** A rendered reply with status 200, unless the client is gone. */
function send(res: ServerResponse, { body, contentType }: Rendered): void {
  if (res.destroyed) return;
  res.writeHead(200, { 'content-type': contentType, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

const sendError = (res: ServerResponse, e: HttpError, headers: Record<string, string> = {}): void =>
  sendJson(res, e.status, { error: { ...(e.field !== undefined && { field: e.field }), message: e.message } }, headers);

/** Reads the body up to MAX_BODY_BYTES; a larger one throws 413 without reading the rest. */
function readBody(req: IncomingMessage): Promise<string> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > MAX_BODY_BYTES) return Promise.reject(new HttpError(413, `the body is over ${MAX_BODY_BYTES} bytes`));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        req.removeAllListeners('data');
        req.pause();
        reject(new HttpError(413, `the body is over ${MAX_BODY_BYTES} bytes`));
      } else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function sameSecret(given: string | string[] | undefined, expected: string): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Waits `ms`; resolves false at once when the client goes away first (so a closed engine keeps no timers). */
function delay(ms: number, res: ServerResponse): Promise<boolean> {
  if (res.destroyed) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onClose = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      res.off('close', onClose);
      resolve(true);
    }, ms);
    res.once('close', onClose);
  });
}

/** A request checked, and how to rank its answers (once, when first asked). */
interface Prepared {
  request: AnswerRequest;
  rank: () => Ranked[];
}

export function createEngineServer(config: HandlerConfig): Server {
  /** Checks the request and says how to rank its answers (once, when first asked); a bad request comes back as the HttpError to send. */
  function prepare(body: unknown, invalidJson: string | undefined): HttpError | Prepared {
    if (invalidJson !== undefined) return new HttpError(400, `the body is not valid JSON: ${invalidJson}`, '(body)');
    const request = parseAnswerRequest(body);
    if (isProblem(request)) return new HttpError(400, request.message, request.field);
    if (request.wikiagent !== config.agent) return new HttpError(404, 'not authorized: unknown wikiagent');
    let ranked: Ranked[] | undefined;
    const rank = (): Ranked[] => (ranked ??= config.retriever.answer(request.question.text, request.language, 1 + config.thresholds.maxSuggestions * 2));
    return { request, rank };
  }

  /** The user has a dialogue open: a follow-up may answer the question, leaving the normal ranking unused. */
  const inDialogue = (request: AnswerRequest): boolean =>
    request.username !== undefined && config.sessions.peek(request.wikiagent, request.username)?.step !== undefined;

  async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { stats } = config;
    stats.requests++;
    const raw = await readBody(req);
    if (!sameSecret(req.headers.wikiclone_code, config.code)) throw new HttpError(404, 'not authorized: check the wikiclone_code header');
    let body: unknown;
    let invalidJson: string | undefined;
    try {
      body = JSON.parse(raw);
    } catch (error) {
      invalidJson = (error as Error).message;
    }
    const plan = config.planFaults(faultKey(body, raw));
    // the answer is ranked while the latency runs, as a real service's would be: under load the replies then
    // still come `delayMs` after their requests, not queued behind each other's retrieval. Not inside a dialogue:
    // a follow-up may answer, and the turn ranks only when none does (the ranking is the same either way)
    const started = performance.now();
    const prepared = prepare(body, invalidJson);
    if (plan.delayMs > 0 && !(prepared instanceof HttpError) && !inDialogue(prepared.request)) prepared.rank();
    // a reply that moves no user's state is made while the latency runs too, down to its bytes: it leaves `delayMs`
    // after its request, not after the time to build it as well
    const made = plan.delayMs > 0 && plan.fault.kind === 'none' && !(prepared instanceof HttpError) && prepared.request.username === undefined ? reply(prepared) : undefined;
    const wait = Math.max(0, plan.delayMs - (performance.now() - started));
    if (plan.delayMs > 0 && !(await delay(wait, res))) return; // the client gave up: nothing is injected
    const { fault } = plan;
    if (fault.kind === 'reset') {
      stats.faults.reset++;
      return void req.socket.destroy();
    }
    if (fault.kind === 'error') {
      stats.faults.error++;
      throw new HttpError(fault.status, 'injected fault');
    }
    if (fault.kind === 'throttle') {
      stats.faults.throttle++;
      return sendError(res, new HttpError(429, 'too many requests (injected)'), { 'retry-after': String(fault.retryAfter) });
    }
    if (prepared instanceof HttpError) throw prepared;
    if (fault.kind === 'oversize') {
      stats.faults.oversize++;
      const response = turn(prepared);
      const padded = { ...response, answers: response.answers.map((a) => ({ ...a, context: 'x'.repeat(OVERSIZE_BYTES) })) };
      return sendJson(res, 200, padded);
    }
    if (fault.kind === 'malformed') {
      stats.faults.malformed++;
      return send(res, { body: malformedBody(JSON.stringify(turn(prepared))), contentType: 'application/json; charset=utf-8' });
    }
    send(res, made ?? reply(prepared));
  }

  /**
   * The answer to a request. The session moves on only here, past the injected resets, errors and 429s and a client
   * gone during the latency: a request that got no answer leaves the user's dialogue where it was, as if it had never
   * arrived.
   */
  function turn({ request, rank }: Prepared): AnswerResponse {
    const session = request.username === undefined ? undefined : config.sessions.open(request.wikiagent, request.username);
    return takeTurn(session, request.question.text, request.language, rank, config);
  }

  /** The answer to a request in the output it asked for. */
  const reply = (prepared: Prepared): Rendered => render(turn(prepared), prepared.request.output);

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0];
    if (path === ANSWER_PATH) {
      if (req.method !== 'POST') throw new HttpError(405, 'use POST');
      return answer(req, res);
    }
    if (path === '/healthz') {
      if (req.method !== 'GET' && req.method !== 'HEAD') throw new HttpError(405, 'use GET');
      return sendJson(res, 200, { status: 'ok' });
    }
    throw new HttpError(404, `no such path: ${path} (the service answers POST ${ANSWER_PATH})`);
  }

  const server = createServer({ keepAliveTimeout: 10_000 }, (req, res) => {
    req.on('error', () => undefined); // a client that aborts must not crash the process
    res.on('error', () => undefined);
    handle(req, res).catch((error: unknown) => {
      const e = error instanceof HttpError ? error : new HttpError(500, 'internal error');
      const headers: Record<string, string> = {};
      if (e.status === 405) headers.allow = (req.url ?? '').startsWith(ANSWER_PATH) ? 'POST' : 'GET, HEAD';
      if (e.status === 413) headers.connection = 'close'; // the rest of the body is not read
      sendError(res, e, headers);
    });
  });
  server.on('clientError', (_error, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\n\r\n');
    else socket.destroy();
  });
  return server;
}
