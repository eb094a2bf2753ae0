import type { AnswerResponse } from '../model/answer.js';
import { QuestionError, type Asked, type AskResult, type KeptReply } from '../model/ask-result.js';
import type { Question } from '../model/question.js';
import { RETRY_AFTER_CAP_MS, retryAfterMs, retryWaitMs, type BackoffOptions } from './backoff.js';
import { causeHoldsSecret } from './cause.js';
import { decodeBody, readsAsUtf8 } from './charset.js';
import { notFoundError } from './not-found.js';
import { MAX_KEPT_BODY_CHARS, readerFor, readReply, type ReplyReading } from './outputs.js';
import { outputOf, requestJson, sentOf, type RequestSettings } from './request.js';
import { excerpt, type ParsedResponse } from './response.js';
import type { TextKnowledge } from './text-reply.js';
import { maskOf, readableMasks, SECRET_KINDS, type Secrets } from './secrets/secrets.js';
import { sleep } from './sleep.js';
import type { Throttle } from './throttle.js';
import type { HttpReply, Transport } from './transport.js';
import { basicAuth, redactTyped, redactUrl } from './url.js';

export interface AskContext {
  transport: Transport;
  /** Where to POST; a `user:password@` in it is sent as Basic auth (see basicAuth). */
  endpoint: URL;
  /** The agent's secret code, sent as the wikiclone_code header and nowhere else. */
  agentCode: string;
  /** Every secret of the run (the agent code among them): masked in whatever is kept of a reply or an error. */
  secrets: Secrets;
  settings: RequestSettings;
  /** Retries after the first attempt for network errors, timeouts, 429 and 5xx (see `retryOn`). */
  retries: number;
  /**
   * What may be retried: `transient` failures (network errors, timeouts, 429, 5xx), or only those of a request that
   * cannot have reached the service (`unsent`: connection refused, DNS), for a turn of a conversation. @default 'transient'
   */
  retryOn?: 'transient' | 'unsent';
  backoff: BackoffOptions;
  /** Stops before the next attempt (and during a backoff wait): nothing more is sent for this question. */
  signal?: AbortSignal;
  /** Aborts the attempt in flight (the grace period after an interrupt ran out). */
  cancel?: AbortSignal;
  /** Shared by every worker: --rps, and the rate (or the pause) after a 429. */
  throttle?: Throttle;
  /** Told of every wait before a retry, e.g. for the progress line. */
  onRetry?: (question: Question, error: QuestionError, waitMs: number) => void;
  /** The knowledge base's entries by answer text, when known: a text reply's answers are read against it (text-reply.ts). */
  knowledge?: TextKnowledge;
}

/**
 * Asks one question, retrying what may pass. A 404 throws NotAuthorizedError, or WrongPathError when it looks like a
 * wrong path (the run must stop); every other failure comes back as a QuestionError for this question only. The
 * reply is read as the output the question was asked in (its row's, else the run's: src/client/outputs.ts).
 */
export async function ask(ctx: AskContext, question: Question): Promise<AskResult> {
  const body = requestJson(question, ctx.settings);
  const sent = sentOf(question, ctx.settings);
  const asked: Asked = sent === undefined ? {} : { sent };
  const reading: ReplyReading = { output: outputOf(question, ctx.settings), language: question.language ?? ctx.settings.language, ...(ctx.knowledge ? { knowledge: ctx.knowledge } : {}) };
  if (reading.output === 'xml' || reading.output === 'html') await readerFor(reading.output);
  const headers = headersOf(ctx);
  let attempts = 0;
  let latencyMs: number | null = null;
  for (;;) {
    ctx.signal?.throwIfAborted();
    const gate = ctx.throttle?.acquire(ctx.signal);
    if (gate) await gate;
    attempts++;
    const started = performance.now();
    let error: QuestionError;
    try {
      const reply = await ctx.transport.post(ctx.endpoint, body, headers, ctx.cancel);
      latencyMs = performance.now() - started;
      if (reply.status === 404) throw notFoundError(reply, ctx.endpoint, ctx.settings.agent, ctx.secrets);
      if (reply.status === 200) {
        const parsed = parseReply(reply, ctx.secrets, reading);
        if (reading.output !== 'json') asked.reply = keptReply(reply, ctx.secrets, reading.output, parsed.withheld === true);
        if (parsed.ok) return { ok: true, response: parsed.response, ...(parsed.shown ? { shown: parsed.shown } : {}), attempts, latencyMs, ...asked };
        return { ok: false, error: scrub(new QuestionError('protocol', parsed.message), ctx.secrets), attempts, latencyMs, ...asked };
      }
      const retryAfter = reply.headers['retry-after'];
      error = new QuestionError('http', statusMessage(reply, ctx), { status: reply.status, retryAfter: typeof retryAfter === 'string' ? retryAfter : undefined });
    } catch (thrown) {
      if (!(thrown instanceof QuestionError)) throw thrown;
      error = thrown;
      latencyMs = null;
    }
    error = scrub(error, ctx.secrets);
    const retryAfter = retryAfterMs(error.retryAfter);
    const waitMs = retryWaitMs(attempts - 1, ctx.backoff, retryAfter);
    const retrying = (ctx.retryOn === 'unsent' ? error.unsent : error.retryable) && attempts <= ctx.retries;
    if (retrying) ctx.onRetry?.(question, error, waitMs);
    // the service is overloaded: the whole run slows down, not only this question, which waits what the service
    // asked (never less; its backoff when longer) while the others go on at the cut rate (or pause: --pause-on-429)
    if (error.status === 429 || (error.status === 503 && retryAfter !== undefined)) {
      ctx.throttle?.throttled(retryAfter === undefined ? waitMs : Math.min(retryAfter, RETRY_AFTER_CAP_MS));
    }
    if (!retrying) return { ok: false, error, attempts, latencyMs, ...asked };
    await sleep(waitMs, ctx.signal);
  }
}

/** The headers of every request to an endpoint with an agent code, made once (undici reads them, never changes them). */
const sentHeaders = new WeakMap<URL, { agentCode: string; headers: Record<string, string> }>();

function headersOf(ctx: AskContext): Record<string, string> {
  const known = sentHeaders.get(ctx.endpoint);
  if (known?.agentCode === ctx.agentCode) return known.headers;
  const authorization = basicAuth(ctx.endpoint);
  const headers = { 'content-type': 'application/json; charset=UTF-8', wikiclone_code: ctx.agentCode, ...(authorization ? { authorization } : {}) };
  sentHeaders.set(ctx.endpoint, { agentCode: ctx.agentCode, headers });
  return headers;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** A status other than 200 and 404 in words: a redirect says where it points (nothing follows it), any other quotes its body. */
function statusMessage(reply: HttpReply, ctx: AskContext): string {
  const from = `HTTP ${reply.status} from ${redactUrl(ctx.endpoint)}`;
  const location = reply.headers['location'];
  if (REDIRECTS.has(reply.status) && typeof location === 'string') {
    return `${from} (redirects to ${redactLocation(location, ctx.endpoint, ctx.secrets)}): answer-eval does not follow redirects; use the address it points to as --base-url`;
  }
  const text = shownText(reply, ctx.secrets);
  return `${from}${text ? `: ${JSON.stringify(excerpt(text))}` : ''}`;
}

/**
 * A Location, relative to the endpoint, redacted like any URL, a secret anywhere in it masked: before it is parsed
 * too, since parsing lower-cases a host name and would hide a secret there from the search.
 */
function redactLocation(location: string, endpoint: URL, secrets: Secrets): string {
  const masked = secrets.mask(location);
  try {
    return secrets.mask(readableMasks(redactUrl(new URL(masked, endpoint))));
  } catch {
    return secrets.mask(redactTyped(masked));
  }
}

/** A body as a report may keep it: its bytes masked before any charset decodes them, then its text (best effort). */
const shownText = (reply: HttpReply, secrets: Secrets): string => secrets.mask(decodeBody(secrets.maskBytes(reply.bytes), contentType(reply), false));

/**
 * The answers of a 200, decoded by its charset and read as the output asked for (outputs.ts). They are judged as the
 * service wrote them: a code that is also a word of the knowledge base (`bill`) must not turn a right answer wrong.
 * When the body holds a secret, `shown` is the same response with the secrets masked, from the body masked before it
 * is read (a tag list `a|CODE|b` is split after the code is gone, so no piece of it is kept); a text reply's answers
 * are masked one by one instead (read masked, a text would find another entry). A body that breaks the spec is masked
 * before its message quotes and cuts it. A secret split by markup (`CO<b></b>DE`) is found in the text a person reads
 * (secrets/markup-view.ts) and masked with the markup between its pieces; should the answers read from a body still
 * hold one, they are masked one by one (`withheld`: the body is not kept).
 */
function parseReply(reply: HttpReply, secrets: Secrets, reading: ReplyReading): ParsedResponse & { shown?: AnswerResponse; withheld?: true } {
  let text: string;
  try {
    text = decodeBody(reply.bytes, contentType(reply), true);
  } catch (error) {
    if (error instanceof QuestionError) return { ok: false, message: charsetMessage(reply, secrets, error.message) };
    throw error;
  }
  const parsed = readReply(text, reading);
  // read as UTF-8, the text holds what the bytes hold, but for a secret in UTF-16 (a NUL beside each ASCII character):
  // the bytes are searched too, in every encoding a secret may have been sent in, when they may hold one not in the text
  const bytesToo = !readsAsUtf8(contentType(reply)) || reply.bytes.includes(0);
  const echoed = !secrets.empty && (secrets.holds(text) || (bytesToo && secrets.holdsBytes(reply.bytes)));
  if (!echoed) {
    if (reading.output === 'json' || secrets.empty || !parsed.ok) return parsed;
    const masked = secrets.maskDeep(parsed.response);
    return JSON.stringify(masked) === JSON.stringify(parsed.response) ? parsed : { ...parsed, shown: masked, withheld: true };
  }
  const shown = shownText(reply, secrets);
  const masked = readReply(reading.output === 'xml' || reading.output === 'html' ? masksAsText(shown) : shown, reading);
  // a secret that broke the body: the message of the body as sent, its quotes cut short after a secret's start masked too
  if (!parsed.ok) return masked.ok ? { ok: false, message: secrets.maskCut(secrets.mask(parsed.message)) } : masked;
  // the masked body reads as the same answers (a secret across the JSON's own quotes may break it): else each string is masked
  const same = reading.output !== 'text' && masked.ok && masked.response.answers.length === parsed.response.answers.length;
  return { ...parsed, shown: same ? masked.response : secrets.maskDeep(parsed.response) };
}

/** A masked xml or html body with its masks written as text, not as tags (`&lt;agent code&gt;`): it reads as the same answers. */
const masksAsText = (text: string): string => SECRET_KINDS.reduce((t, kind) => t.split(maskOf(kind)).join(`&lt;${kind}&gt;`), text);

/**
 * A non-json body as a result keeps it: masked (as a report keeps any body), then cut, never inside a mask, a
 * secret's start before the cut masked too.
 */
function keptReply(reply: HttpReply, secrets: Secrets, output: KeptReply['output'], withheld: boolean): KeptReply {
  if (withheld) return { output, withheld: true };
  const text = shownText(reply, secrets);
  if (text.length <= MAX_KEPT_BODY_CHARS) return { output, body: text };
  let end = MAX_KEPT_BODY_CHARS;
  const open = text.lastIndexOf('<', end);
  if (open >= 0 && SECRET_KINDS.some((kind) => text.startsWith(maskOf(kind), open) && open + maskOf(kind).length > end)) end = open;
  return { output, body: secrets.maskCut(`${text.slice(0, end)}…`), cut: true };
}

/**
 * Why a body could not be read in its charset, naming the charset: from the content-type with its secrets masked when
 * it holds one, since the charset it names may be a piece of one (the header cut at a space), which no mask finds.
 */
function charsetMessage(reply: HttpReply, secrets: Secrets, message: string): string {
  const declared = contentType(reply);
  if (declared === undefined || !secrets.holds(declared)) return message;
  try {
    decodeBody(reply.bytes, secrets.mask(declared), true);
  } catch (error) {
    if (error instanceof QuestionError) return error.message;
  }
  return `the body cannot be read in the charset its content-type declares (${JSON.stringify(secrets.mask(declared))})`;
}

/**
 * The content-type, as sent: a secret that is an ordinary token (a query value `utf-8`) must not change how a body
 * is read. A message naming the charset is masked before it is cut (scrub, charsetMessage).
 */
function contentType(reply: HttpReply): string | undefined {
  const header = reply.headers['content-type'];
  return Array.isArray(header) ? header[0] : header;
}

/** The longest error message a report keeps (an excerpt of a body is shorter; this bounds what else may come). */
export const MAX_ERROR_CHARS = 500;

/**
 * The error as the report keeps it: the secrets masked (a transport error or a header may hold them too), then cut
 * to MAX_ERROR_CHARS. In that order, so a cut never keeps the start of a secret. Its cause (undici's error) is kept
 * for whoever debugs, unless it holds a secret: no mask reaches inside it, and a program may print it.
 */
function scrub(error: QuestionError, secrets: Secrets): QuestionError {
  let message = secrets.mask(error.message);
  if (message.length > MAX_ERROR_CHARS) message = `${message.slice(0, MAX_ERROR_CHARS)}… (cut)`;
  const keepsCause = !causeHoldsSecret(error, secrets);
  if (message === error.message && keepsCause) return error;
  return new QuestionError(error.kind, message, { status: error.status, retryAfter: error.retryAfter, code: error.code, ...(keepsCause ? { cause: error.cause } : {}) });
}
