/** The endpoint for a base URL, keeping any path prefix: http://h/x -> http://h/x/api/v1/answer. */
export function answerEndpoint(baseUrl: string): URL {
  const base = new URL(baseUrl);
  if (!base.pathname.endsWith('/')) base.pathname += '/';
  return new URL('api/v1/answer', base);
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

const URL_IN_TEXT = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>]+/gi;

/** Redacts every URL inside a message (an undici or proxy error may quote the URL it was given). */
export const redactUrlsIn = (text: string): string => text.replace(URL_IN_TEXT, (url) => redactUrl(url));
