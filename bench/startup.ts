// (i) Start-up: how long a command takes before it does anything, as a ratio of `node -e 0` measured in the same
// rounds (the machine is shared: a ratio to a peer run alongside is what holds). Peers: vitest --version and
// tsc --version, tools a CI job also starts.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { CLI, ROOT } from './paths.js';
import { median } from './lib/package.js';

export interface StartupResult {
  rounds: number;
  /** Median wall time of each command, ms. */
  ms: Record<string, number>;
  /** Each command's median over `node -e 0`'s. */
  ratio: Record<string, number>;
}

const BIN = join(ROOT, 'bin', 'answer-eval.js');
const COMMANDS: Record<string, string[]> = {
  'node -e 0': ['-e', '0'],
  'answer-eval --version': [BIN, '--version'],
  'answer-eval validate (113 questions)': [BIN, 'validate', '-d', join(ROOT, 'datasets', 'sample', 'questions.csv')],
  'answer-eval --help': [CLI, '--help'],
  'vitest --version': [join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'), '--version'],
  'tsc --version': [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '--version'],
};

/** Every command once a round, alternated, `rounds` times; the first round warms the file cache and is not counted. */
export function benchStartup(rounds: number): StartupResult {
  const times: Record<string, number[]> = Object.fromEntries(Object.keys(COMMANDS).map((k) => [k, []]));
  for (let round = 0; round <= rounds; round++) {
    for (const [name, args] of Object.entries(COMMANDS)) {
      const started = performance.now();
      execFileSync(process.execPath, args, { stdio: 'ignore', cwd: ROOT, env: { ...process.env, ANSWER_AGENT_CODE: undefined } });
      if (round > 0) times[name]!.push(performance.now() - started);
    }
  }
  const ms = Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)]));
  const node = ms['node -e 0']!;
  return { rounds, ms, ratio: Object.fromEntries(Object.entries(ms).map(([k, v]) => [k, v / node])) };
}
