import type { AskContext } from '../../client/ask.js';
import { DEFAULT_BACKOFF } from '../../client/backoff.js';
import { Throttle } from '../../client/throttle.js';
import { Transport } from '../../client/transport.js';
import type { QuestionResult } from '../../model/report.js';
import { Backlog } from '../backlog.js';
import { Breaker } from '../breaker.js';
import { execute } from '../execute.js';
import type { Stopping } from '../stopping.js';
import { toError } from '../stop-reasons.js';
import type { Asker, Work } from '../work.js';
import { plannedWork, type Plan } from './plan.js';
import type { Recorder } from './record.js';

/** What the asking left: why it stopped early (undefined when it did not), and when it ended. */
export interface Asked {
  stoppedBy?: unknown;
  finishedAt: Date;
}

/**
 * Stage 2, ask: the planned work through one pool of `concurrency` slots (a keep-alive connection each), at the rate
 * the throttle allows (--rps, and slower after a 429), each question retried as the client decides (src/client/ask.ts).
 * A reply frees its slot at once (the next request goes out); it is judged (stage 3) and recorded (stage 4) on the
 * loop's next turn. The circuit breaker, an outside stop, a journal that cannot be written or a dataset that changed
 * stops it: nothing more is sent, requests in flight get the grace period.
 */
export async function askAll(plan: Plan, record: Recorder, stopping: Stopping): Promise<Asked> {
  const { o } = plan;
  const emit = o.onEvent;
  const transport = new Transport({ connections: o.concurrency, timeoutMs: o.timeoutMs, maxResponseBytes: o.maxResponseBytes, insecure: o.insecure });
  const ctx = askContext(plan, transport, stopping.cancelled);
  stopping.watch(o.signal, o.graceMs, emit);
  const askings = plan.total * o.repeat;
  let done = askings - plan.toAsk;
  emit?.({ type: 'start', total: askings, done, toAsk: plan.toAsk });
  const breaker = new Breaker(o.maxConsecutiveErrors, stopping.stop);
  const put = (index: number, k: number, result: QuestionResult): void => {
    record.put(index, k, result);
    o.onProgress?.(++done, askings);
    emit?.({ type: 'result', id: result.id, error: result.outcome === 'error' });
    breaker.see(result);
  };
  const answered = new Backlog<Work>((work) => work.judge(plan.judge, put), (error) => stopping.stop(toError(error)));
  const execution = await execute(
    plannedWork(plan, record.keep, stopping.stop),
    (signal) => {
      const asker: Asker = { ctx: { ...ctx, signal }, runName: plan.runName, maxTurnDelayMs: o.maxTurnDelayMs, answered };
      return (work) => work.ask(asker);
    },
    { concurrency: o.concurrency, signal: stopping.draining },
  ).finally(async () => {
    answered.flush();
    stopping.dispose();
    await transport.close();
    await record.close();
  });
  emit?.({ type: 'journaled' });
  return { ...execution, finishedAt: new Date() };
}

/** How each question is asked: where, as whom, with what retries, at what rate (one throttle for the whole run, slower after a 429). */
function askContext(plan: Plan, transport: Transport, cancel: AbortSignal): AskContext {
  const { o } = plan;
  const emit = o.onEvent;
  const throttle = new Throttle({
    ...(o.rps !== undefined ? { rps: o.rps } : {}),
    pauseAll: o.pauseOn429,
    ...(emit ? { onPause: (waitMs: number, rps: number) => emit({ type: 'pause', waitMs, rps }), onRate: (rps: number | null) => emit({ type: 'rate', rps }) } : {}),
  });
  return {
    transport,
    endpoint: plan.endpoint,
    agentCode: o.agentCode,
    secrets: plan.secrets,
    settings: plan.settings,
    retries: o.retries,
    backoff: o.backoff ?? DEFAULT_BACKOFF,
    cancel,
    throttle,
    ...(plan.knowledge ? { knowledge: plan.knowledge } : {}),
    ...(emit ? { onRetry: (q, e, waitMs) => emit({ type: 'retry', id: q.id, reason: e.status ? `${e.kind} ${e.status}` : e.kind, waitMs }) } : {}),
  };
}
