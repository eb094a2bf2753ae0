import { TOKEN_HEADER, type ErrorReply } from './data.js';

/** A request the server refused: what it said; `conflict` when the set changed on disk since the page read it. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly conflict: boolean,
  ) {
    super(message);
  }
}

/** The page's token, from its URL: every request carries it. */
const token = new URLSearchParams(location.search).get('token') ?? '';

/** One request of the label API: POST, JSON, the token in its header. */
export async function call<T>(route: string, body: unknown): Promise<T> {
  const res = await fetch(`/api/${route}`, { method: 'POST', headers: { 'Content-Type': 'application/json', [TOKEN_HEADER]: token }, body: JSON.stringify(body) });
  const data = (await res.json().catch(() => ({ error: `the server answered ${res.status}` }))) as T | ErrorReply;
  if (!res.ok) {
    const e = data as ErrorReply;
    throw new ApiError(e.error ?? `the server answered ${res.status}`, e.conflict === true);
  }
  return data as T;
}
