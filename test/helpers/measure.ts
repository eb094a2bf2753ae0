import { readFileSync } from 'node:fs';
import { spawnCli, type CliResult } from './cli.js';

export interface Measured extends CliResult {
  /** Wall time of the process, ms. */
  ms: number;
  /** Its peak resident memory in MiB (VmHWM, read from /proc while it runs); undefined where /proc is missing. */
  peakMiB: number | undefined;
}

const vmHwmKb = (pid: number): number | undefined => {
  try {
    const m = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined; // gone, or no /proc
  }
};

/** Runs the built CLI and measures its wall time and peak memory (polled every 20 ms: a peak reached in its last moments may be missed). */
export async function runMeasured(args: string[], env: Record<string, string | undefined> = {}, timeoutMs = 60_000): Promise<Measured> {
  const started = performance.now();
  const run = spawnCli(args, env, timeoutMs);
  let peak: number | undefined;
  const poll = setInterval(() => {
    const kb = run.child.pid === undefined ? undefined : vmHwmKb(run.child.pid);
    if (kb !== undefined) peak = Math.max(peak ?? 0, kb);
  }, 20);
  const { code, stdout, stderr } = await run.exited;
  clearInterval(poll);
  return { code, stdout, stderr, ms: performance.now() - started, peakMiB: peak === undefined ? undefined : peak / 1024 };
}
