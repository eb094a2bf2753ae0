import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { faultDataset, specServerFactory, type FaultTarget } from '../helpers/fault-server.js';
import { tempDir, writeTemp } from '../helpers/tmp.js';

// Every worker of a run waits on the same signal, in its retry backoff and at the throttle's gate. A
// listener per waiting request used to print "MaxListenersExceededWarning: Possible EventTarget memory leak
// detected. 11 abort listeners added to [AbortSignal]" at -c 16.

const dir = tempDir('answer-eval-warn-');
const targets: FaultTarget[] = [];
afterAll(() => Promise.all(targets.map((t) => t.close())));

describe('no Node warning reaches the user (built CLI)', () => {
  it('-c 16 with retries against a service that 503s every first attempt and sometimes 429s', async () => {
    const target = await specServerFactory((n, attempt) => {
      if (attempt > 1) return { kind: 'ok' };
      return n % 16 === 0 ? { kind: 'status', status: 429, retryAfter: '0' } : { kind: 'status', status: 503 };
    });
    targets.push(target);
    const dataset = writeTemp(dir, 'q.jsonl', faultDataset(96));
    const out = join(dir, 'out');
    const res = await runCli(['run', '-d', dataset, '--base-url', target.url, '--agent', 'demo', '-o', out, '-c', '16', '--retries', '3', '--format', 'json'], { ANSWER_AGENT_CODE: 'code-1234' });
    expect(res.code).toBe(0);
    expect(target.requests()).toHaveLength(192); // every question waited once, sixteen at a time
    expect(res.stderr).not.toMatch(/Warning|MaxListeners|\(node:\d+\)/);
    expect(res.stdout).not.toMatch(/Warning/);
  });
});
