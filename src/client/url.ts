/** The operation's path (spec 4.1), and the API's, which users often give as their base URL. */
export const ANSWER_PATH = '/api/v1/answer';
const API_PATH = '/api/v1';
const API_PATHS = [ANSWER_PATH, API_PATH] as const;

/**
 * The service's base URL for a base URL as users write it: `https://host`, `https://host/`, `https://host/api/v1` (the
 * form the service's docs show) and `https://host/api/v1/answer` (the endpoint itself) all stand for `https://host/`;
 * a path prefix stays (`https://host/qa/api/v1` → `https://host/qa/`), as do a query string and credentials. `endsIn`
 * says which of the API's paths was taken off (matched in any case, trailing slashes aside).
 */
export function serviceBase(url: URL): { base: URL; endsIn?: typeof ANSWER_PATH | typeof API_PATH } {
  const base = new URL(url);
  const path = base.pathname.replace(/\/+$/, '');
  const endsIn = API_PATHS.find((p) => path.toLowerCase().endsWith(p));
  if (endsIn !== undefined) base.pathname = path.slice(0, -endsIn.length);
  if (!base.pathname.endsWith('/')) base.pathname += '/';
  return endsIn === undefined ? { base } : { base, endsIn };
}

/**
 * The endpoint for a base URL as users write it (see serviceBase), keeping any path prefix, query string and
 * credentials: http://u:p@h/x?k=v -> http://u:p@h/x/api/v1/answer?k=v (see basicAuth for the credentials).
 */
export function answerEndpoint(baseUrl: string): URL {
  const { base } = serviceBase(new URL(baseUrl));
  const endpoint = new URL(ANSWER_PATH.slice(1), base);
  endpoint.search = base.search; // a relative URL drops the base's query; some gateways authenticate by it
  return endpoint;
}

/**
 * The Authorization header for a URL's `user:password@`, as curl sends it (RFC 7617, UTF-8); undefined without one.
 * Throws a URIError when they are not valid percent-encoding (checkBaseUrl refuses such a URL first).
 */
export function basicAuth(url: URL): string | undefined {
  if (url.username === '' && url.password === '') return undefined;
  const pair = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
  return `Basic ${Buffer.from(pair, 'utf8').toString('base64')}`;
}

/** Whether a URL holds what redactUrl leaves out as secret: a user name, password or query string. */
export function hasUrlSecrets(url: string | URL): boolean {
  try {
    const u = new URL(String(url));
    return u.username !== '' || u.password !== '' || u.search !== '';
  } catch {
    return false;
  }
}

/** A URL fit for a report or a log line: no user, password, query or fragment. */
export function redactUrl(url: string | URL): string {
  try {
    const u = new URL(String(url));
    u.username = '';
    u.password = '';
    u.search = '';
    u.hash = '';
    return u.toString().replace(/\/$/, '');
  } catch {
    return '<invalid url>';
  }
}

/**
 * What was typed for a URL that does not parse, with what may be its credentials and query cut off by hand
 * (everything up to the last `@`, everything from a `?` or `#`): `http://u:pw@h:99999/x?token=t` -> `http://h:99999/x`.
 */
export function redactTyped(text: string): string {
  const at = text.lastIndexOf('@');
  const scheme = at < 0 ? '' : (/^[a-z][a-z0-9+.-]*:\/+/i.exec(text)?.[0] ?? '');
  return (at < 0 ? text : scheme + text.slice(at + 1)).replace(/[?#].*$/s, '');
}

const URL_IN_TEXT = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>]+/gi;

/** Redacts every URL inside a message (an undici or proxy error may quote the URL it was given). */
export const redactUrlsIn = (text: string): string => text.replace(URL_IN_TEXT, (url) => redactUrl(url));
