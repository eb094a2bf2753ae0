import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, spawnCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

// A team keeps its flags in answer-eval.config.json: `answer-eval run` with no flag in its directory uses it, says so
// on one line of stderr, and a flag given on the command line wins.

const dir = tempDir('answer-eval-config-e2e-');
const write = (path: string, data: unknown): void => writeFileSync(path, `${JSON.stringify(data, null, 2)}\n`);
const report = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as { gates?: { passed: boolean; results: { gate: string }[] }; run: { options: { concurrency: number } } };

describe('answer-eval.config.json', () => {
  const project = join(dir, 'project');
  mkdirSync(project);
  write(join(project, 'answer-eval.config.json'), {
    run: { out: 'reports/main', format: 'json,md', 'min-accuracy': 0.5, concurrency: 3, quiet: true },
    profiles: { pr: { run: { out: 'reports/pr', 'min-accuracy': 0.99 } } },
  });

  it('a run with no flag in its directory uses it, and says so on one line', async () => {
    const res = await runCli(['run'], {}, 60_000, { cwd: project });
    expect(res.stderr).toBe('answer-eval: options from answer-eval.config.json: --min-accuracy, --concurrency, --out, --format, --quiet\n');
    expect(res.code).toBe(0);
    const head = report(join(project, 'reports/main/report.json'));
    expect(head.run.options.concurrency).toBe(3);
    expect(head.gates?.passed).toBe(true);
    expect(existsSync(join(project, 'reports/main/summary.md'))).toBe(true);
    expect(existsSync(join(project, 'reports/main/report.html'))).toBe(false); // --format json,md
  });

  it('a flag on the command line wins; --profile lays a profile over the section', async () => {
    const pr = await runCli(['run', '--profile', 'pr', '-c', '2'], {}, 60_000, { cwd: project });
    expect(pr.stderr.split('\n')[0]).toBe('answer-eval: options from answer-eval.config.json (profile pr): --min-accuracy, --out, --format, --quiet');
    expect(pr.code).toBe(1); // the sample's top-1 accuracy is below the profile's 0.99
    expect(pr.stdout).toMatch(/gate FAILED: top1Accuracy 0\.\d+ < --min-accuracy 0\.99/);
    expect(report(join(project, 'reports/pr/report.json')).run.options.concurrency).toBe(2);
  });

  it('--config FILE from another directory: its paths are relative to it; --no-config reads none', async () => {
    const elsewhere = join(dir, 'elsewhere');
    mkdirSync(elsewhere);
    const res = await runCli(['run', '--config', '../project/answer-eval.config.json', '--out', 'here', '--min-accuracy', '0.1'], {}, 60_000, { cwd: elsewhere });
    expect(res.stderr).toBe('answer-eval: options from ../project/answer-eval.config.json: --concurrency, --format, --quiet\n');
    expect(res.code).toBe(0);
    expect(existsSync(join(elsewhere, 'here/report.json'))).toBe(true);
    const none = await runCli(['validate', '--no-config', '-d', join(process.cwd(), 'datasets/sample/questions.csv')], {}, 60_000, { cwd: project });
    expect(none.stderr).toBe('');
    expect(none.code).toBe(0);
  });

  it('a misspelled key is exit 2 naming the file, the key and the key meant; nothing is run; --help still works', async () => {
    const typo = join(dir, 'typo');
    mkdirSync(typo);
    write(join(typo, 'answer-eval.config.json'), { run: { 'min-acuracy': 0.8, out: 'never' }, compare: { 'fail-on': 'regresion' } });
    const res = await runCli(['run'], {}, 60_000, { cwd: typo });
    expect(res.code).toBe(2);
    expect(res.stderr).toBe(
      'answer-eval: answer-eval.config.json: run.min-acuracy: unknown key (did you mean "min-accuracy"?)\n' +
        'answer-eval.config.json: compare.fail-on: --fail-on must be one of regression, significant-regression, got "regresion" (did you mean regression?)\n',
    );
    expect(existsSync(join(typo, 'never'))).toBe(false);
    const help = await runCli(['run', '--help'], {}, 60_000, { cwd: typo });
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--config');
    const profile = await runCli(['run', '--no-config', '--profile', 'pr'], {}, 60_000, { cwd: typo });
    expect(profile.code).toBe(2);
    expect(profile.stderr).toContain('--profile pr needs a config file');
  });

  it('the cross-flag checks see the config and the command line together', async () => {
    const both = join(dir, 'both');
    mkdirSync(both);
    write(join(both, 'answer-eval.config.json'), { run: { 'fail-on': 'regression' } });
    const res = await runCli(['run', '-o', 'x'], {}, 60_000, { cwd: both });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('--fail-on, --max-broken and --quarantine need --baseline FILE');
  });

  it('run --resume goes on with the options the run was started with, not the config file\'s as it is now', async () => {
    const nightly = join(dir, 'nightly');
    mkdirSync(nightly);
    const config = join(nightly, 'answer-eval.config.json');
    write(config, { run: { out: 'night', rps: 10, 'min-accuracy': 0.99, format: 'json,md', quiet: true } });
    const started = spawnCli(['run'], {}, 30_000, { cwd: nightly });
    await new Promise<void>((resolve) => {
      const poll = setInterval(() => {
        if (existsSync(join(nightly, 'night', 'run-options.json'))) {
          clearInterval(poll);
          resolve();
        }
      }, 50);
    });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    started.child.kill('SIGINT');
    expect((await started.exited).code).toBe(3);
    // the team edits its config file while the night's run waits to be resumed
    write(config, { run: { out: 'night', 'min-accuracy': 0.1, format: 'all', concurrency: 2, quiet: true } });
    const resumed = await runCli(['run', '--resume', 'night'], {}, 60_000, { cwd: nightly });
    expect(resumed.stderr).toContain('answer-eval: run --resume goes on with the options the run was started with; from answer-eval.config.json only --concurrency, --quiet\n');
    expect(resumed.stderr).toContain('answer-eval: --resume: as the run was started: --min-accuracy 0.99 --format json,md\n');
    expect(resumed.code).toBe(1); // judged by the gate it was started with
    expect(existsSync(join(nightly, 'night', 'report.html'))).toBe(false);
  }, 60_000);
});
