import type { RunningEngine } from '../../src/engine/index.js';

/** The spec's own sample request body (section 4.1, NOTES.md: flags as quoted strings). */
export const specBody = (agent: string, text = 'how can I pay my bill?'): Record<string, unknown> => ({
  wikiagent: agent,
  username: 'user1',
  guest: '1',
  question: { text, ask_for_metadata: '0', using_repeating_answers: '0', extra_data: '<data/>' },
  force_subscription: '0',
  output: 'json',
  language: 'en',
});

/** POSTs a body (object → JSON, string as is) to the answer endpoint. */
export function ask(engine: RunningEngine, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${engine.url}/api/v1/answer`, {
    method: 'POST',
    headers: { 'content-type': 'application/json; charset=UTF-8', wikiclone_code: engine.code, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** The JSON body of a 200 answer. */
export interface AnswerBody {
  post_processed_answer?: string;
  answers: Record<string, string>[];
}

/** Asks one question as `username` (or as a guest when it is undefined) and returns the parsed 200 body. */
export async function askAs(engine: RunningEngine, username: string | undefined, text: string, language = 'en'): Promise<AnswerBody> {
  const { username: _u, guest: _g, ...base } = specBody(engine.agent, text);
  const res = await ask(engine, { ...base, ...(username === undefined ? { guest: '1' } : { username }), language });
  if (res.status !== 200) throw new Error(`${res.status} for "${text}": ${await res.text()}`);
  return (await res.json()) as AnswerBody;
}
