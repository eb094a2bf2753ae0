import { NotAuthorizedError, WrongPathError } from '../errors.js';
import { decodeBody } from './charset.js';
import type { Secrets } from './secrets/secrets.js';
import type { HttpReply } from './transport.js';
import { ANSWER_PATH, redactUrl } from './url.js';

// The spec answers an unauthorized request with 404 (section 5), and so does every web server for a path it does not
// serve: a --base-url that misses the service's path reads as a wrong agent code unless the 404 is looked at.

/** What a router's or a web server's 404 says: the path, not the agent, was not found. */
const ROUTE_ERROR = /cannot (?:post|get) \/|no such (?:path|route|endpoint)|no route\b|route not found|page not found|was not found on this server|whitelabel error page|no handler found|endpoint not found|unknown (?:path|route|endpoint)|<title>\s*(?:404\b[^<]*|not found\s*)<\/title>/i;

/** What a refusal of the agent says: then the 404 is the spec's, whatever else the body holds. */
const REFUSAL = /authori[sz]|wikiclone|agent|credential|forbidden|permission|access denied/i;

/** A segment before /api/v1/answer that belongs to an API path: a base URL that holds the API's path already. */
const API_SEGMENT = /^(?:api|v\d+|answers?)$/i;

/** The first this many characters of a 404's body are looked at. */
const LOOKED_AT = 64 * 1024;

/**
 * The error a 404 stops the run with: a WrongPathError when the URL's path holds the API's path twice
 * (`/api/v2/api/v1/answer`), or the body is a router's or web server's "not found" (`Cannot POST /x`, nginx's
 * `404 Not Found` page, a body quoting the path it did not find), and it does not speak of authorization; otherwise
 * the spec's NotAuthorizedError. The body is masked before it is quoted; the URL is redacted.
 */
export function notFoundError(reply: HttpReply, endpoint: URL, agent: string, secrets: Secrets): NotAuthorizedError | WrongPathError {
  const url = redactUrl(endpoint);
  const prefix = endpoint.pathname.endsWith(ANSWER_PATH) ? endpoint.pathname.slice(0, -ANSWER_PATH.length) : endpoint.pathname;
  const segment = prefix.split('/').find((s) => API_SEGMENT.test(s));
  if (segment !== undefined) return new WrongPathError(url, `its path holds "${segment}" before ${ANSWER_PATH}`);
  const header = reply.headers['content-type'];
  const text = secrets.mask(decodeBody(secrets.maskBytes(reply.bytes.subarray(0, LOOKED_AT)), Array.isArray(header) ? header[0] : header, false));
  if (REFUSAL.test(text)) return new NotAuthorizedError(url, agent);
  const route = ROUTE_ERROR.exec(text);
  const quotesPath = /not found/i.test(text) && text.includes(endpoint.pathname) ? text.indexOf(endpoint.pathname) : -1;
  const at = route?.index ?? quotesPath;
  if (at < 0) return new NotAuthorizedError(url, agent);
  const said = text.slice(at, at + 80).replace(/\s+/g, ' ').trim();
  return new WrongPathError(url, `the body says ${JSON.stringify(said)}${text.length > at + 80 ? '…' : ''}`);
}
