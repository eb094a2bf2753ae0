import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { SAMPLE_KB, SAMPLE_QUESTIONS } from '../../src/engine/samples.js';
import { runCli } from '../helpers/cli.js';
import { writeTemp } from '../helpers/tmp.js';

/**
 * The audit's two runs in `dir`: six questions of the sample (q011 among them) in `pr.csv`, BASE on the sample
 * knowledge base and HEAD on `kb-broken.jsonl`, the sample without entry 12, which breaks q011 (one broken question).
 */
export function prRuns(dir: string): { dataset: string; kbBroken: string; base: string; head: string; make: () => Promise<void> } {
  const lines = readFileSync(SAMPLE_QUESTIONS, 'utf8').split('\n');
  const dataset = writeTemp(dir, 'pr.csv', `${[lines[0], ...lines.slice(1, 6), lines[11]].join('\n')}\n`);
  const kbBroken = writeTemp(dir, 'kb-broken.jsonl', readFileSync(SAMPLE_KB, 'utf8').split('\n').filter((l) => !l.includes('"sequence_number": 12,')).join('\n'));
  const make = async (): Promise<void> => {
    const runs = await Promise.all([
      runCli(['run', '-q', '-d', dataset, '-o', join(dir, 'base'), '--format', 'json']),
      runCli(['run', '-q', '-d', dataset, '--kb', kbBroken, '-o', join(dir, 'head'), '--format', 'json']),
    ]);
    expect(runs.map((r) => r.code)).toEqual([0, 0]);
  };
  return { dataset, kbBroken, base: join(dir, 'base', 'report.json'), head: join(dir, 'head', 'report.json'), make };
}
