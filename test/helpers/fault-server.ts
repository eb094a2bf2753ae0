import { item, startSpecServer, type Reply, type SpecServer } from './spec-server.js';

/**
 * What the service does to one attempt at one question. Fault tests describe the service as a plan
 * (question number, attempt) -> fault, and compute the outcomes they expect from the same plan, so a
 * server factory can be swapped (the scriptable spec server now; the embedded engine's fault injection later).
 */
export type Fault =
  | { kind: 'ok' }
  | { kind: 'status'; status: number; retryAfter?: string }
  | { kind: 'reset' }
  | { kind: 'slow'; delayMs: number }
  | { kind: 'malformed' }
  | { kind: 'oversized'; bytes: number; chunked: boolean };

export type FaultPlan = (n: number, attempt: number) => Fault;

export interface FaultTarget {
  url: string;
  /** Requests received so far, with the question number and arrival time. */
  requests: () => { n: number; at: number }[];
  close: () => Promise<void>;
}

export type FaultServerFactory = (plan: FaultPlan) => Promise<FaultTarget>;

/** Question `q<n>` expects sequence n % 3 + 1; a healthy answer's top-1 is n % 4 + 1, so the outcome depends on n alone. */
export const questionText = (n: number): string => `q${n}`;
export const expectedSequence = (n: number): number => (n % 3) + 1;
export const answeredSequence = (n: number): number => (n % 4) + 1;
export const healthyOutcome = (n: number): 'correct' | 'wrong' => (expectedSequence(n) === answeredSequence(n) ? 'correct' : 'wrong');

/** A JSONL dataset of `count` questions q0..q{count-1} with their expected sequence numbers. */
export const faultDataset = (count: number): string =>
  Array.from({ length: count }, (_, n) => JSON.stringify({ id: `id${n}`, question: questionText(n), expected_sequence: expectedSequence(n) })).join('\n') + '\n';

const numberOf = (body: Record<string, unknown>): number => Number(String((body['question'] as { text?: string } | undefined)?.text ?? '').slice(1));

function replyFor(fault: Fault, n: number): Reply {
  switch (fault.kind) {
    case 'ok':
      return { body: { answers: [item(answeredSequence(n), 90), item(9, 10)] } };
    case 'status':
      return { status: fault.status, body: { error: 'fault' }, ...(fault.retryAfter ? { headers: { 'retry-after': fault.retryAfter } } : {}) };
    case 'reset':
      return { reset: true };
    case 'slow':
      return { delayMs: fault.delayMs, body: { answers: [item(answeredSequence(n), 90)] } };
    case 'malformed':
      return { body: '{"answers": [' };
    case 'oversized':
      return { body: JSON.stringify({ answers: [{ ...item(1, 90), answer: 'x'.repeat(fault.bytes) }] }), chunked: fault.chunked };
  }
}

/** The scriptable spec server, faulting per question and attempt as the plan says. */
export const specServerFactory: FaultServerFactory = async (plan) => {
  const attempts = new Map<number, number>();
  const server: SpecServer = await startSpecServer((req) => {
    const n = numberOf(req.body);
    const attempt = (attempts.get(n) ?? 0) + 1;
    attempts.set(n, attempt);
    return replyFor(plan(n, attempt), n);
  });
  return {
    url: server.url,
    requests: () => server.received.map((r) => ({ n: numberOf(r.body), at: r.at })),
    close: () => server.close(),
  };
};
