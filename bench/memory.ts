// (c) Peak RSS of whole `answer-eval run` processes of growing size against the zero-latency server.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { writeQuestions } from './lib/data.js';
import { runProcess, startChild } from './lib/proc.js';
import { AGENT_CODE, CLI, ZERO_SERVER } from './paths.js';

export interface MemoryResult {
  questions: number;
  peakRssMb: number;
  seconds: number;
  formats: string;
}

export async function benchMemory(tmp: string, sizes: number[], formats: string): Promise<MemoryResult[]> {
  const server = await startChild(process.execPath, [ZERO_SERVER]);
  const results: MemoryResult[] = [];
  try {
    for (const n of sizes) {
      const dataset = writeQuestions(tmp, n);
      const out = join(tmp, `memory-${n}`);
      const started = performance.now();
      const res = await runProcess(
        process.execPath,
        [CLI, 'run', '-d', dataset, '--base-url', `http://127.0.0.1:${server.port}`, '--agent', 'bench', '-c', '64', '--format', formats, '-o', out],
        { env: { ANSWER_AGENT_CODE: AGENT_CODE }, measureRss: true, timeoutMs: 1_800_000 },
      );
      if (res.code !== 0 || res.peakRssMb === undefined) throw new Error(`run of ${n} failed (${res.code}): ${res.stderr.slice(0, 500)}`);
      results.push({ questions: n, peakRssMb: res.peakRssMb, seconds: (performance.now() - started) / 1000, formats });
      rmSync(dataset);
    }
  } finally {
    await server.stop();
  }
  return results;
}
