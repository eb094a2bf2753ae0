import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { runCli, spawnCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

// A nightly run with gates and a baseline is interrupted; `run --resume DIR`, as every stop message advises, used to
// finish it with no gate and no comparison (exit 0, no compare.md for the job to publish). The run keeps what decides
// how it is finished (run-options.json) and its resume takes it, saying so.

const dir = tempDir('answer-eval-resume-gates-');
const base = join(dir, 'base');
const night = join(dir, 'night');
/** The results a run's journal holds so far. */
const journaled = (out: string): number => (existsSync(join(out, 'journal.jsonl')) ? readFileSync(join(out, 'journal.jsonl'), 'utf8').split('\n').filter((l) => l.startsWith('{"id"')).length : 0);

describe('run --resume finishes a run with the gates and baseline it was started with', () => {
  it('judges the same gates and writes the comparison after an interrupt', async () => {
    expect((await runCli(['run', '-o', base, '--format', 'json', '-q'])).code).toBe(0);

    const started = spawnCli(['run', '-o', night, '--rps', '10', '--min-accuracy', '0.99', '--baseline', base, '--fail-on', 'regression', '--format', 'json,md', '-q']);
    // interrupted once it has kept its options and journaled a few answers (--rps 10: the run lasts 11 s)
    await vi.waitFor(() => {
      expect(existsSync(join(night, 'run-options.json'))).toBe(true);
      expect(journaled(night)).toBeGreaterThanOrEqual(3);
    }, { timeout: 20_000, interval: 20 });
    started.child.kill('SIGINT');
    const stopped = await started.exited;
    expect(stopped.code).toBe(3);
    expect(stopped.stderr).toContain(`continue with: answer-eval run --resume ${night}`);
    expect(JSON.parse(readFileSync(join(night, 'run-options.json'), 'utf8'))).toEqual({ minAccuracy: 0.99, failOn: 'regression', baseline: base, format: 'json,md' });

    const resumed = await runCli(['run', '--resume', night, '-q']);
    expect(resumed.stderr).toContain(`answer-eval: --resume: as the run was started: --min-accuracy 0.99 --fail-on regression --baseline ${base} --format json,md\n`);
    expect(resumed.code).toBe(1); // the sample's top-1 accuracy is below 0.99
    expect(resumed.stdout).toMatch(/gate FAILED: top1Accuracy 0\.\d+ < --min-accuracy 0\.99/);
    expect(resumed.stdout).toContain('gate passed: no broken question');
    expect(existsSync(join(night, 'compare.md'))).toBe(true);
    expect(existsSync(join(night, 'report.html'))).toBe(false); // --format json,md, as started
    expect(readFileSync(join(night, 'summary.md'), 'utf8')).toMatch(/^\*\*❌ answer-eval: 1 of 2 gates FAILED\*\*/);
  }, 60_000);
});
