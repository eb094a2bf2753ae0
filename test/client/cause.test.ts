import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ask, type AskContext } from '../../src/client/ask.js';
import { DEFAULT_BACKOFF } from '../../src/client/backoff.js';
import { Secrets, type Secret } from '../../src/client/secrets/secrets.js';
import { Transport } from '../../src/client/transport.js';
import { answerEndpoint } from '../../src/client/url.js';
import { QuestionError } from '../../src/model/ask-result.js';
import type { Question } from '../../src/model/question.js';
import { toResult } from '../../src/score/result.js';

// An error made from another keeps it as its cause, for whoever debugs; the message the user reads is as it was.

/** A loopback port nobody listens on: one the system gave, then closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const question: Question = { id: 'q1', line: 2, question: 'how do I pay?', expect: 'answer', expected: {}, tags: [] };

async function askRefused(base: string, secrets: readonly Secret[]): Promise<QuestionError> {
  const transport = new Transport({ connections: 1, timeoutMs: 5000, maxResponseBytes: 1 << 20 });
  const ctx: AskContext = {
    transport,
    endpoint: answerEndpoint(base),
    agentCode: 'code-1234',
    secrets: new Secrets([{ kind: 'agent code', value: 'code-1234' }, ...secrets]),
    settings: { agent: 'demo', language: 'en', guest: true, forceSubscription: false, output: 'json' },
    retries: 0,
    backoff: DEFAULT_BACKOFF,
  };
  try {
    const asked = await ask(ctx, question);
    if (asked.ok) throw new Error('a refused connection answered');
    return asked.error;
  } finally {
    await transport.close();
  }
}

describe('a network failure', () => {
  it("keeps undici's (the system's) error as its cause; the message is as before", async () => {
    const port = await closedPort();
    const transport = new Transport({ connections: 1, timeoutMs: 5000, maxResponseBytes: 1 << 20 });
    const error = await transport.post(answerEndpoint(`http://127.0.0.1:${port}`), '{}', {}).catch((e: unknown) => e);
    await transport.close();
    expect(error).toBeInstanceOf(QuestionError);
    expect(error).toMatchObject({ kind: 'network', code: 'ECONNREFUSED', message: `ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:${port}` });
    const cause = (error as QuestionError).cause;
    expect(cause).toBeInstanceOf(Error);
    expect(cause).toMatchObject({ code: 'ECONNREFUSED', syscall: 'connect', address: '127.0.0.1', port });
  });

  it('keeps it through ask(), and no report field holds it', async () => {
    const port = await closedPort();
    const error = await askRefused(`http://127.0.0.1:${port}`, []);
    expect(error.cause).toMatchObject({ code: 'ECONNREFUSED', syscall: 'connect' });
    // not enumerable: JSON.stringify and a spread leave it out; a result keeps kind and message
    expect(Object.keys(error)).not.toContain('cause');
    expect(JSON.stringify(error)).not.toContain('connect');
    const result = toResult(question, { ok: false, error, attempts: 1, latencyMs: null }, 'en');
    expect(result.error).toEqual({ kind: 'network', message: `ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:${port}` });
  });

  it('is left without its cause when the cause holds a secret (no mask reaches inside it)', async () => {
    const port = await closedPort();
    // the address is a query value of --base-url, so a secret: the message is masked, and the cause, which holds it, goes
    const error = await askRefused(`http://127.0.0.1:${port}/?token=127.0.0.1`, [{ kind: 'query value', value: '127.0.0.1' }]);
    expect(error).toMatchObject({ kind: 'network', code: 'ECONNREFUSED', message: `ECONNREFUSED: connect ECONNREFUSED <query value>:${port}` });
    expect(error.cause).toBeUndefined();
    expect('cause' in error).toBe(false);
  });
});
