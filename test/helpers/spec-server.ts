import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
  raw: string;
  /** performance.now() when the request arrived. */
  at: number;
}

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

export interface SpecServer {
  url: string;
  received: Received[];
  /** performance.now() as each reply (not a reset) was sent, with its status. */
  replied: { at: number; status: number }[];
  close(): Promise<void>;
}

/** A spec-speaking test server on 127.0.0.1 port 0 whose replies a test scripts. */
export async function startSpecServer(script: Script): Promise<SpecServer> {
  const received: Received[] = [];
  const replied: SpecServer['replied'] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(raw) as Record<string, unknown>;
      } catch {
        /* recorded raw */
      }
      const r: Received = { headers: req.headers, body, raw, at: performance.now() };
      received.push(r);
      const reply = await script(r, received.length);
      if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
      if (reply.reset) {
        req.socket.destroy();
        return;
      }
      const text = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body ?? {});
      replied.push({ at: performance.now(), status: reply.status ?? 200 });
      if (reply.chunked) {
        res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', 'transfer-encoding': 'chunked', ...reply.headers });
        for (let i = 0; i < text.length; i += 4096) res.write(text.slice(i, i + 4096));
        res.end();
        return;
      }
      res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
      res.end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  server.unref();
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    replied,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
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
