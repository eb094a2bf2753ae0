import { startLoopback, type Loopback, type Received } from './loopback.js';

export type { Received } from './loopback.js';

export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  /** An object is sent as JSON; a string as is. */
  body?: unknown;
  /** Destroy the socket instead of answering. */
  reset?: boolean;
  delayMs?: number;
  /** Send the body in chunks without a content-length. */
  chunked?: boolean;
}

export type Script = (req: Received, n: number) => Reply | Promise<Reply>;

export interface SpecServer extends Loopback {
  /** performance.now() as each reply (not a reset) was sent, with its status. */
  replied: { at: number; status: number }[];
}

/** A spec-speaking test server on 127.0.0.1 port 0 whose replies a test scripts. */
export async function startSpecServer(script: Script): Promise<SpecServer> {
  const replied: SpecServer['replied'] = [];
  const server = await startLoopback(async (r, res, req) => {
    const reply = await script(r, server.received.length);
    if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
    if (reply.reset) {
      req.socket.destroy();
      return;
    }
    const text = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body ?? {});
    replied.push({ at: performance.now(), status: reply.status ?? 200 });
    const headers = { 'content-type': 'application/json', ...(reply.chunked ? { 'transfer-encoding': 'chunked' } : {}), ...reply.headers };
    res.writeHead(reply.status ?? 200, headers);
    if (reply.chunked) for (let i = 0; i < text.length; i += 4096) res.write(text.slice(i, i + 4096));
    res.end(reply.chunked ? undefined : text);
  });
  return Object.assign(server, { replied });
}

/** An answer item written the way the spec's sample writes it: every value a string. */
export function item(seq: number, score: number, extra: Record<string, string> = {}): Record<string, string> {
  return {
    answer: `answer ${seq}`,
    sequence_number: String(seq),
    answer_score: String(score),
    label: `label-${seq}`,
    is_agent_answer: 'true',
    is_dummy_answer: 'false',
    is_dummy_floor_answer: 'false',
    is_suggestion_answer: 'false',
    is_international_question: 'false',
    is_dialog_in_progress: 'false',
    is_dialogue_answer: 'false',
    delay: '-1',
    ...extra,
  };
}
