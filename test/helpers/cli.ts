import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, expect } from 'vitest';

export const CLI = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A warning of Node's own (`(node:123) Warning: ...`, `(node:123) [DEP0137] DeprecationWarning: ...`, `MaxListenersExceededWarning`). */
export const NODE_WARNING = /^\(node:\d+\) (?:\[[A-Z0-9]+\] )?\w*Warning\b.*$/m;

const warnings: string[] = [];

/** Keeps every Node warning a CLI run printed; the file's tests fail at the end if there was any (no warning may reach a user). */
function collectWarnings(args: readonly string[], stderr: string): void {
  const found = NODE_WARNING.exec(stderr);
  if (found) warnings.push(`answer-eval ${args.join(' ')}\n    ${found[0]}`);
}

// every test file that runs the CLI checks the stderr of all its runs, killed ones included
afterAll(() => {
  expect(warnings, 'Node printed warnings on the stderr of these CLI runs (fix their cause)').toEqual([]);
});

/** Where the CLI runs: `cwd` (default: this process's), e.g. a directory holding an answer-eval.config.json. */
export interface CliPlace {
  cwd?: string;
}

/** Runs the built CLI (npm test builds it first) and collects its output. */
export function runCli(args: string[], env: Record<string, string | undefined> = {}, timeoutMs = 60_000, place: CliPlace = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      ...place,
      env: { ...process.env, ANSWER_AGENT_CODE: undefined, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: timeoutMs,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      collectWarnings(args, stderr);
      resolve({ code, stdout, stderr });
    });
  });
}

export interface SpawnedCli {
  child: ChildProcessWithoutNullStreams;
  /** Output so far. */
  output: () => { stdout: string; stderr: string };
  /** Resolves with the exit code (null when killed) and the signal. */
  exited: Promise<CliResult & { signal: NodeJS.Signals | null }>;
}

/** Starts the built CLI and hands back the process, e.g. to signal or kill it mid-run. */
export function spawnCli(args: string[], env: Record<string, string | undefined> = {}, timeoutMs = 30_000, place: CliPlace = {}): SpawnedCli {
  const child = spawn(process.execPath, [CLI, ...args], {
    ...place,
    env: { ...process.env, ANSWER_AGENT_CODE: undefined, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
    timeout: timeoutMs,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<CliResult & { signal: NodeJS.Signals | null }>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => {
      collectWarnings(args, stderr);
      resolve({ code, signal, stdout, stderr });
    });
  });
  return { child, output: () => ({ stdout, stderr }), exited };
}
