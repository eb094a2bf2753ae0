import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from '../../src/cli/command.js';
import { parse as parseYaml } from 'yaml';
import { describe, expect, it } from 'vitest';
import { commands } from '../../src/cli/commands/index.js';
import { configFor } from '../../src/cli/config.js';
import { cliParser } from '../../src/cli/parser.js';
import { loadConfig } from '../../src/config/load.js';
import { commandSpecs } from '../../src/config/options.js';
import { shardFromEnv } from '../../src/dataset/shard.js';
import { answerEvalCommands, commandLinesOf, shellWords, substitute } from '../helpers/command-lines.js';
import { tempDir } from '../helpers/tmp.js';

// The CI files of examples/ (issue 27 point 3) are real files the docs link to: every answer-eval command line in them
// must parse with the CLI's own yargs definitions (strict: an unknown option fails), without running anything.

const EXAMPLES = fileURLToPath(new URL('../../examples/', import.meta.url));
const FILES = (function walk(dir: string): string[] {
  return readdirSync(join(EXAMPLES, dir), { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]));
})('').sort();
const CI_FILES = FILES.filter((f) => /\.ya?ml$/.test(f));
const text = (file: string): string => readFileSync(join(EXAMPLES, file), 'utf8');
/** Where a command line runs: a CI job at the root of a repository holding the example config; a pod where there is none. */
const NO_CONFIG = tempDir();
const cwdOf = (file: string): string => (file.startsWith('kubernetes/') ? NO_CONFIG : EXAMPLES);

/** Parses `argv` as `answer-eval` would, the config file of `cwd` applied, with handlers that only say they were reached. */
async function parse(argv: string[], cwd: string): Promise<{ command: string; options: Record<string, unknown> }> {
  const config = await configFor(argv, commands, cwd);
  let reached: { command: string; options: Record<string, unknown> } | undefined;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any command, as in commands/index.ts
  const inert: Command<any>[] = commands.map((c) => ({
    ...c,
    handler: async (options: Record<string, unknown>) => {
      reached = { command: String(c.command).split(' ')[0]!, options };
    },
  }));
  const quiet = { write: () => true };
  await cliParser(argv, config, { stdout: quiet, stderr: quiet, env: {}, cwd }, () => {}, inert).parseAsync();
  if (reached === undefined) throw new Error(`answer-eval ${argv.join(' ')}: no command was reached`);
  return reached;
}

describe('reading the command lines of a CI file', () => {
  it('splits shell words as sh does and drops redirections', () => {
    expect(shellWords(`npx answer-eval run -d "my set.csv" --agent 'a b' -o x\\ y 2>/dev/null >> "$LOG" && echo done # note`)).toEqual([
      'npx', 'answer-eval', 'run', '-d', 'my set.csv', '--agent', 'a b', '-o', 'x y', '&&', 'echo', 'done',
    ]);
    expect(answerEvalCommands('npm ci && npx answer-eval merge a b -o m\nnpx answer-eval view --no-open | cat')).toEqual([['merge', 'a', 'b', '-o', 'm'], ['view', '--no-open']]);
  });

  it('gives placeholders plausible values, and refuses one it has none for', () => {
    expect(substitute('--shard ${{ matrix.shard }}/4 -o "shards/$CI_NODE_INDEX" /reports/$(JOB_COMPLETION_INDEX) ${ANSWER_URL}')).toBe(
      '--shard 2/4 -o "shards/2" /reports/1 https://answers.example.com',
    );
    expect(() => substitute('--agent $SOMETHING_ELSE')).toThrow('no plausible value for the placeholder SOMETHING_ELSE');
  });

  it('finds the command lines of steps, scripts and containers, YAML continuations joined', () => {
    const yaml = 'jobs:\n  a:\n    steps:\n      - run: >-\n          npx answer-eval run\n          --profile pr\n' + 'b:\n  script:\n    - npx answer-eval merge s/* -o m\n' + 'c:\n  containers:\n    - command: [answer-eval]\n      args: [view, --port, "0"]\n';
    expect(commandLinesOf(yaml)).toEqual([
      { at: 'jobs.a.steps[0].run', argv: ['run', '--profile', 'pr'] },
      { at: 'b.script[0]', argv: ['merge', 's/*', '-o', 'm'] },
      { at: 'c.containers[0].args', argv: ['view', '--port', '0'] },
    ]);
  });

  it('the parser is strict: an unknown or misspelt option fails, naming the nearest one', async () => {
    await expect(parse(['run', '--profile', 'pr', '--concurancy', '4'], EXAMPLES)).rejects.toThrow('unknown option: --concurancy (did you mean --concurrency?)');
    await expect(parse(['merge', 'shard-1', '--allow-partiall'], NO_CONFIG)).rejects.toThrow(/unknown option: --allow-partiall/);
    await expect(parse(['run', '--profile', 'staging'], EXAMPLES)).rejects.toThrow(/staging/);
  });
});

describe('examples/', () => {
  it('holds the config file and the CI files the docs link to', () => {
    expect(FILES).toEqual([
      'answer-eval.config.json',
      'github/answer-eval-nightly.yml',
      'github/answer-eval-pr.yml',
      'github/answer-eval-shards.yml',
      'gitlab/.gitlab-ci.yml',
      'kubernetes/answer-eval-job.yaml',
      'kubernetes/answer-eval-merge-job.yaml',
    ]);
  });

  it('answer-eval.config.json passes the config loader and validator, with its pr and nightly profiles', async () => {
    const loaded = await loadConfig('answer-eval.config.json', EXAMPLES, commandSpecs(commands));
    expect(Object.keys(loaded!.config.profiles)).toEqual(['pr', 'nightly']);
  });

  it.each(CI_FILES)('every answer-eval command line of %s parses with the CLI\'s yargs definitions', async (file) => {
    const lines = commandLinesOf(text(file));
    expect(lines.length, `${file} has no answer-eval command line`).toBeGreaterThan(0);
    for (const { at, argv } of lines) {
      const parsed = await parse(argv, cwdOf(file)).catch((error: Error) => {
        throw new Error(`${file}: ${at}: answer-eval ${argv.join(' ')}: ${error.message}`);
      });
      expect(parsed.command, `${file}: ${at}`).toBe(argv[0]);
    }
  });

  it('the pull-request step takes the baseline, the quarantine and the regression gate from the pr profile', async () => {
    const [line] = commandLinesOf(text('github/answer-eval-pr.yml'));
    const { options } = await parse(line!.argv, EXAMPLES);
    // paths are the config file's, relative to its directory (the working directory here)
    expect([options['baseline'], options['quarantine'], options['fail-on'], options['max-error-rate'], options['out']]).toEqual([
      'baseline/report.json',
      'baseline/quarantine.txt',
      'regression',
      0.02,
      'reports/pr',
    ]);
  });

  it('GitLab: parallel jobs ask a shard each (--shard auto) and the merge job merges them', () => {
    const ci = parseYaml(text('gitlab/.gitlab-ci.yml')) as Record<string, { parallel?: number }>;
    const [run, merge] = commandLinesOf(text('gitlab/.gitlab-ci.yml'));
    expect(run!.argv.join(' ')).toContain('--shard auto');
    const n = ci['answer-eval']!.parallel!;
    expect(shardFromEnv({ CI_NODE_INDEX: String(n), CI_NODE_TOTAL: String(n) })).toEqual({ index: n, count: n });
    expect(merge!.argv[0]).toBe('merge');
  });

  it('Kubernetes: JOB_COMPLETIONS is the Job\'s completions, and the merge Job takes every index\'s directory', () => {
    const job = parseYaml(text('kubernetes/answer-eval-job.yaml')) as {
      spec: { completions: number; completionMode: string; template: { spec: { containers: { env: { name: string; value?: string }[] }[] } } };
    };
    const n = job.spec.completions;
    expect(job.spec.completionMode).toBe('Indexed');
    const completions = job.spec.template.spec.containers[0]!.env.find((e) => e.name === 'JOB_COMPLETIONS')?.value;
    expect(completions).toBe(String(n));
    expect(shardFromEnv({ JOB_COMPLETION_INDEX: String(n - 1), JOB_COMPLETIONS: completions })).toEqual({ index: n, count: n });
    const [merge] = commandLinesOf(text('kubernetes/answer-eval-merge-job.yaml'));
    expect(merge!.argv.filter((a) => /^\/reports\/\d+$/.test(a))).toEqual(Array.from({ length: n }, (_, i) => `/reports/${i}`));
  });
});
