import type { Interrupts, JobIo } from '../job/io.js';
import { tightenHeap } from './heap.js';

/** The process's SIGINT and SIGTERM (see Interrupts); `exit` is the one place answer-eval ends the process itself. */
const interrupts: Interrupts = {
  listen(handler) {
    process.on('SIGINT', handler);
    process.on('SIGTERM', handler);
    return () => {
      process.off('SIGINT', handler);
      process.off('SIGTERM', handler);
    };
  },
  exit: (code) => process.exit(code),
};

/** The io of the process: its streams, environment, working directory and signals. */
export const processIo = (): JobIo => ({ stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd(), interrupts, tightenHeap });
