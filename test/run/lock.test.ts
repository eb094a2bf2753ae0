import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LOCK_FILE, lockDir } from '../../src/run/lock.js';
import { tempDir } from '../helpers/tmp.js';

const dir = tempDir('answer-eval-lock-');

/** A run directory whose lock names `pid` on this host. */
function lockedBy(name: string, pid: number): string {
  const d = join(dir, name);
  mkdirSync(d);
  writeFileSync(join(d, LOCK_FILE), `${JSON.stringify({ pid, host: hostname(), startedAt: '2026-01-01T00:00:00.000Z' })}\n`);
  return d;
}

// a parent that never reaps its child: the child waits until the shell has become `sleep 30` (which never reaps), then
// exits and stays a zombie. Had it exited before the exec, the shell could have reaped it (seen once under load)
const parent = spawn('sh', ['-c', 'p=$$; (while read c < /proc/$p/comm && [ "$c" != sleep ]; do :; done) & echo $!; exec sleep 30'], { stdio: ['ignore', 'pipe', 'ignore'] });
afterAll(() => {
  parent.kill();
});
const zombiePid = new Promise<number>((resolve) => parent.stdout.once('data', (d: Buffer) => resolve(Number(String(d).trim()))));
const state = (pid: number): string => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
};

describe.skipIf(!existsSync('/proc/self/stat'))('lockDir: is the holder of a lock still running?', () => {
  it('a run killed with SIGKILL and not yet reaped (a zombie) holds nothing: its lock is taken over', async () => {
    const pid = await zombiePid;
    for (let i = 0; i < 100 && state(pid) !== 'Z'; i++) await new Promise((r) => setTimeout(r, 20));
    expect(state(pid)).toBe('Z');
    const lock = await lockDir(lockedBy('zombie', pid), '--resume');
    expect(lock.tookOver?.pid).toBe(pid);
    lock.release();
  });

  it('a live process keeps its lock', async () => {
    await zombiePid;
    const d = lockedBy('live', parent.pid!);
    await expect(lockDir(d, '--resume')).rejects.toThrow(`--resume ${d} is in use by another answer-eval run (pid ${parent.pid}`);
  });
});
