import { describe, expect, it } from 'vitest';
import { execute } from '../../src/run/execute.js';

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('execute', () => {
  it('runs at most `concurrency` tasks at once, reading the items only as slots free up', async () => {
    let running = 0;
    let most = 0;
    let read = 0;
    const done: number[] = [];
    function* items() {
      for (let i = 0; i < 10; i++) {
        read++;
        expect(read - done.length).toBeLessThanOrEqual(3 + 3); // running, and as many read ahead
        yield i;
      }
    }
    const execution = await execute(items(), () => async (i) => {
      most = Math.max(most, ++running);
      await tick(2);
      running--;
      done.push(i);
    }, { concurrency: 3 });
    expect(execution).toEqual({});
    expect(most).toBe(3);
    expect(done.sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('the first task that throws stops it: nothing more starts, running tasks settle, every task saw the same signal, aborted', async () => {
    const started: number[] = [];
    const signals = new Set<AbortSignal>();
    const boom = new Error('boom');
    const execution = await execute([0, 1, 2, 3, 4, 5], (signal) => async (i) => {
      signals.add(signal);
      started.push(i);
      await tick(i === 1 ? 1 : 10);
      if (i === 1) throw boom;
    }, { concurrency: 2 });
    expect(execution).toEqual({ stoppedBy: boom });
    expect(started).toEqual([0, 1]);
    expect([...signals].map((s) => s.aborted)).toEqual([true]);
  });

  it("its caller's signal stops it with that reason", async () => {
    const stop = new AbortController();
    const started: number[] = [];
    const execution = await execute([0, 1, 2, 3], () => async (i) => {
      started.push(i);
      if (i === 0) stop.abort(new Error('enough'));
      await tick(1);
    }, { concurrency: 1, signal: stop.signal });
    expect(started).toEqual([0]);
    expect((execution.stoppedBy as Error).message).toBe('enough');
  });
});
