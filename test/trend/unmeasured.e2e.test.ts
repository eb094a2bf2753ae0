import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Report } from '../../src/model/report.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { many, report, result } from '../compare/fixtures.js';
import { writeNight } from '../helpers/nights.js';

// A nightly gate is about the latest night. A night whose service was down (every question in error, the run stopped
// by its circuit breaker) judged nothing: "0 new failures" on it is no evidence, so a gate on it cannot pass (exit
// 3, as for a run that measured nothing), and without a gate the trend is written and the night is said to be empty.

const dir = tempDir('answer-eval-trend-unmeasured-');

const night = (name: string, day: number, r: Report, status: 'completed' | 'partial' = 'completed'): Promise<string> =>
  writeNight(dir, name, day, r, { status, ...(status === 'partial' ? { stopReason: 'circuit breaker' } : {}) });

describe('trend whose latest run measured nothing', () => {
  it('a gate cannot be judged on it: exit 3, the files written; without a gate, exit 0 with a warning; a partial night is said', async () => {
    const good = await night('1-good', 1, report([...many('a', 6, 'correct'), result('w', 'wrong', 2)]));
    const down = await night('2-down', 2, report(many('a', 3, 'error')), 'partial');
    const latest = join(down, 'report.json');
    const nothing = `the latest run, ${latest}, judged no question (each ended in error or expects nothing): nothing was measured`;

    const gated = await runCli(['trend', good, down, '-o', join(dir, 'gated'), '--max-new-failures', '0']);
    expect(gated.code, gated.stderr).toBe(3);
    expect(gated.stdout).toContain(`gate FAILED: --max-new-failures cannot be judged: ${nothing}`);
    expect(gated.stderr).toContain(`answer-eval: warning: the latest run, ${latest}, is PARTIAL: it stopped before asking every question`);
    expect(gated.stderr).toContain(`answer-eval: ${nothing}; no gate can be judged on it\n`);

    const plain = await runCli(['trend', good, down, '-o', join(dir, 'plain'), '--format', 'json']);
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stderr).toContain(`answer-eval: warning: ${nothing}\n`);

    // a night that judged its questions is gated as before
    const back = await night('3-back', 3, report([...many('a', 6, 'correct'), result('w', 'correct')]));
    const passed = await runCli(['trend', good, down, back, '-o', join(dir, 'back'), '--max-new-failures', '0', '--format', 'json']);
    expect(passed.code, passed.stderr).toBe(0);
    expect(passed.stdout).toContain('gate passed: 0 new failures <= --max-new-failures 0');
    expect(passed.stderr).toBe('');
  });
});
