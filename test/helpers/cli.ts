import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { main } from '../../src/cli/cli.js';

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

/** The Node warnings the CLI runs printed since the last call: each test file checks its own (test/setup/each-file.ts). */
export const takeWarnings = (): string[] => warnings.splice(0);

/** Where the CLI runs: `cwd` (default: this process's), e.g. a directory holding an answer-eval.config.json. */
export interface CliPlace {
  cwd?: string;
}

/** The environment of a CLI run: this process's, without an agent code, with `env` over it (undefined removes a variable). */
function envOf(env: Record<string, string | undefined>): Record<string, string> {
  const all: Record<string, string | undefined> = { ...process.env, ANSWER_AGENT_CODE: undefined, ...env };
  return Object.fromEntries(Object.entries(all).filter((e): e is [string, string] => e[1] !== undefined));
}

/** A stream that keeps what is written to it. */
function collector(): { write: (text: string) => boolean; text: () => string } {
  const parts: string[] = [];
  return { write: (text) => parts.push(text) > 0, text: () => parts.join('') };
}

let running = 0;

/**
 * Runs the CLI in this process, as `answer-eval ARGS` would run (src/cli/cli.ts `main`), and collects its output; a
 * Node warning it causes is added to its stderr as Node prints it. Past `timeoutMs` it is stopped as a SIGINT would
 * stop it. Several may run at once, but not with `place.cwd`, which moves this process there while it runs. What only a process can show
 * (signals, a kill, stdin, exit codes of the process) goes through runCliProcess or spawnCli.
 */
export async function runCli(args: string[], env: Record<string, string | undefined> = {}, timeoutMs = 60_000, place: CliPlace = {}): Promise<CliResult> {
  if (running > 0 && place.cwd !== undefined) throw new Error('runCli: a run in another working directory runs alone (await the others before)');
  running++;
  const stdout = collector();
  const stderr = collector();
  const onWarning = (w: Error): void => void stderr.write(`(node:${process.pid}) ${w.name}: ${w.message}\n`);
  process.on('warning', onWarning);
  const stop = new AbortController();
  const timer = setTimeout(() => stop.abort(), timeoutMs);
  const home = process.cwd();
  try {
    if (place.cwd !== undefined) process.chdir(place.cwd);
    const code = await main(args, { stdout, stderr, env: envOf(env), cwd: process.cwd(), signal: stop.signal });
    // a warning is emitted on the next turn of the event loop
    await new Promise((resolve) => setImmediate(resolve));
    const result = { code, stdout: stdout.text(), stderr: stderr.text() };
    collectWarnings(args, result.stderr);
    return result;
  } finally {
    clearTimeout(timer);
    process.off('warning', onWarning);
    process.chdir(home);
    running--;
  }
}

/** Runs the built CLI as a process (npm test builds it first) and collects its output: for what only a process shows. */
export function runCliProcess(args: string[], env: Record<string, string | undefined> = {}, timeoutMs = 60_000, place: CliPlace = {}): Promise<CliResult> {
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
