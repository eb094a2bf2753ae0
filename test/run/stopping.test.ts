import { describe, expect, it } from 'vitest';
import { Secrets } from '../../src/client/secrets/secrets.js';
import { InterruptedError, RunAbortedError } from '../../src/errors.js';
import type { RunEvent } from '../../src/run/progress.js';
import { Stopping } from '../../src/run/stopping.js';

const secrets = new Secrets([{ kind: 'agent code', value: 'code-12345' }]);
const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('stopping a run', () => {
  it('the first reason drains the run, its secrets masked; later ones are not taken', () => {
    const stopping = new Stopping(secrets);
    stopping.stop(new Error('the service echoed code-12345'));
    stopping.stop(new Error('a later reason'));
    expect(stopping.draining.aborted).toBe(true);
    expect((stopping.draining.reason as Error).message).toBe('the service echoed <agent code>');
    expect(stopping.cancelled.aborted).toBe(false);
  });

  it('a reason keeps its cause, unless the cause holds a secret (no mask reaches inside it)', () => {
    const disk = Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    const full = new Stopping(secrets);
    full.stop(new RunAbortedError('cannot write the journal', { cause: disk }));
    expect((full.draining.reason as Error).cause).toBe(disk);
    const echoed = new Stopping(secrets);
    echoed.stop(new RunAbortedError('the service failed', { cause: new Error('it said code-12345') }));
    expect((echoed.draining.reason as Error).message).toBe('the service failed');
    expect('cause' in (echoed.draining.reason as Error)).toBe(false);
  });

  it('once watched: a stop is told, and cancels what is in flight after the grace period', async () => {
    const stopping = new Stopping(secrets);
    const events: RunEvent[] = [];
    stopping.watch(undefined, 30, (e) => events.push(e));
    stopping.stop(new RunAbortedError('circuit breaker: enough'));
    expect(events).toEqual([{ type: 'stopping', reason: 'circuit breaker: enough' }]);
    expect(stopping.cancelled.aborted).toBe(false);
    await tick(60);
    expect(stopping.cancelled.reason).toBe(stopping.draining.reason);
    stopping.dispose();
  });

  it("the caller's signal stops it, as an interrupt, also when it aborted before; disposed, it is no longer listened to", () => {
    const before = new AbortController();
    before.abort(new InterruptedError('SIGINT', 'run answer-eval run --resume out'));
    const early = new Stopping(secrets);
    early.watch(before.signal, 1000, undefined);
    expect(early.draining.reason).toBe(before.signal.reason);
    early.dispose();

    const outer = new AbortController();
    const late = new Stopping(secrets);
    late.watch(outer.signal, 1000, undefined);
    late.dispose();
    outer.abort();
    expect(late.draining.aborted).toBe(false);

    const plain = new AbortController();
    const stopping = new Stopping(secrets);
    stopping.watch(plain.signal, 1000, undefined);
    plain.abort();
    expect((stopping.draining.reason as Error).message).toBe('interrupted');
    stopping.dispose();
  });
});
