import { watch } from 'node:fs';
import type { SpawnedCli } from './cli.js';

/** Resolves once `cli` has written `text` on its stderr: waits for its output, no polling; rejects after `timeoutMs`. */
export function stderrHolds(cli: SpawnedCli, text: string, timeoutMs = 20_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const check = (): void => {
      if (!cli.output().stderr.includes(text)) return;
      done();
      resolve();
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error(`no "${text}" on stderr within ${timeoutMs} ms; it holds: ${cli.output().stderr}`));
    }, timeoutMs);
    const done = (): void => {
      clearTimeout(timer);
      cli.child.stderr.off('data', check);
    };
    cli.child.stderr.on('data', check); // after spawnCli's own listener: output() holds the chunk
    check();
  });
}

/** Resolves once `holds()` is true of directory `dir` (which exists), woken by its changes; rejects after `timeoutMs`. */
export function dirHolds(dir: string, holds: () => boolean, timeoutMs = 20_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const watcher = watch(dir, () => {
      if (holds()) finish();
    });
    const timer = setTimeout(() => finish(new Error(`${dir}: not as awaited within ${timeoutMs} ms`)), timeoutMs);
    const finish = (error?: Error): void => {
      clearTimeout(timer);
      watcher.close();
      if (error) reject(error);
      else resolve();
    };
    if (holds()) finish();
  });
}
