import { spawn, type ChildProcess } from 'node:child_process';

export interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Peak resident set size in MB, from GNU time, when measured. */
  peakRssMb?: number;
}

/** Runs a command to its end; with `measureRss`, under /usr/bin/time for its peak RSS. */
export function runProcess(command: string, args: string[], options: { measureRss?: boolean; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): Promise<Finished> {
  const [cmd, argv] = options.measureRss ? ['/usr/bin/time', ['-f', 'PEAK_RSS_KB=%M', command, ...args]] : [command, args];
  return new Promise((resolve, reject) => {
    const child = spawn(cmd as string, argv as string[], { env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'], timeout: options.timeoutMs ?? 600_000 });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const kb = /PEAK_RSS_KB=(\d+)/.exec(stderr)?.[1];
      resolve({ code, stdout, stderr: stderr.replace(/PEAK_RSS_KB=\d+\n?/, ''), ...(kb ? { peakRssMb: Number(kb) / 1024 } : {}) });
    });
  });
}

/** Starts a long-running child that prints a port on its first stdout line. */
export function startChild(command: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ child: ChildProcess; port: number; stop(): Promise<void> }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    const onData = (d: Buffer) => {
      out += d.toString();
      const m = /(\d+)\s*\n/.exec(out) ?? /127\.0\.0\.1:(\d+)/.exec(out);
      if (!m) return;
      child.stdout!.off('data', onData);
      child.stdout!.resume();
      resolve({
        child,
        port: Number(m[1]),
        stop: () =>
          new Promise((done) => {
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    };
    child.stdout!.on('data', onData);
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`${command} ${args.join(' ')} exited with ${code} before printing a port`)));
  });
}
