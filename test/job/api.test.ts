import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SAMPLE_KB } from '../../src/engine/samples.js';
import { compare, main, run, type JobIo } from '../../src/index.js';
import { ReportSchema } from '../../src/model/report.js';
import { runCli } from '../helpers/cli.js';
import { tempDir, writeTemp } from '../helpers/tmp.js';

// Issue 39: a program gets exactly what the CLI does, in one call: the run, its gates, the comparison with a baseline
// and every report. The knowledge base of the sample with one entry's examples replaced breaks a few questions.
const dir = tempDir();

function io(): JobIo & { out: () => string; err: () => string } {
  const out: string[] = [];
  const err: string[] = [];
  return { stdout: { write: (t: string) => out.push(t) }, stderr: { write: (t: string) => err.push(t) }, env: {}, cwd: process.cwd(), out: () => out.join(''), err: () => err.join('') };
}

function editedKb(): string {
  const lines = readFileSync(SAMPLE_KB, 'utf8').trimEnd().split('\n');
  const edited = lines.map((line) => {
    const entry = JSON.parse(line) as { sequence_number: number };
    return entry.sequence_number === 62 ? JSON.stringify({ ...entry, examples: ['eco friendly tariff', 'which plans do you offer', 'cheapest tariff'] }) : line;
  });
  return writeTemp(dir, 'kb-edited.jsonl', `${edited.join('\n')}\n`);
}

describe('the API', () => {
  it('runs, gates against a baseline, compares and writes every report in one call, as the CLI does', async () => {
    const baseline = await run({ out: join(dir, 'main'), quiet: true }, io());
    expect(baseline.exitCode).toBe(0);
    expect(baseline.verdict).toBeUndefined(); // no gate given

    const head = io();
    const result = await run({ kb: editedKb(), out: join(dir, 'pr'), baseline: join(dir, 'main'), failOn: 'regression', minAccuracy: 0.5, quiet: true }, head);
    expect(result.exitCode).toBe(1);
    expect(result.dir).toBe(join(dir, 'pr'));
    expect(result.verdict?.passed).toBe(false);
    expect(result.verdict?.results.map((r) => [r.gate, r.passed])).toEqual([
      ['--min-accuracy', true],
      ['--fail-on regression', false],
    ]);
    for (const file of ['report.json', 'report.html', 'results.csv', 'junit.xml', 'summary.md', 'compare.json', 'compare.html', 'compare.md', 'changes.jsonl']) {
      expect(existsSync(join(dir, 'pr', file)), file).toBe(true);
    }
    // the verdict is in the report, the failure said on stderr as the CLI says it; nothing went to the process's streams
    const written = ReportSchema.parse(JSON.parse(readFileSync(join(dir, 'pr', 'report.json'), 'utf8')));
    expect(written.gates?.passed).toBe(false);
    expect(head.err()).toContain('answer-eval: gate failed:\n  - ');
    expect(head.out()).toMatch(/^ {2}gate .*--fail-on regression/m);

    // the same command line through the CLI: the same exit code and the same verdict
    const cli = await runCli(['run', '--kb', join(dir, 'kb-edited.jsonl'), '-o', join(dir, 'pr-cli'), '--baseline', join(dir, 'main'), '--fail-on', 'regression', '--min-accuracy', '0.5', '-q']);
    expect(cli.code).toBe(1);
    const viaCli = ReportSchema.parse(JSON.parse(readFileSync(join(dir, 'pr-cli', 'report.json'), 'utf8')));
    expect(viaCli.gates).toEqual(written.gates);
    expect(viaCli.summary.outcomes).toEqual(written.summary.outcomes); // latencies differ from run to run
  }, 60_000);

  it('compare returns the verdict; a user mistake is said on the io and gives exit 2, never thrown', async () => {
    const both = io();
    const result = await compare({ base: join(dir, 'main'), head: join(dir, 'pr'), out: join(dir, 'cmp'), maxBroken: 0 }, both);
    expect(result.exitCode).toBe(1);
    expect(result.verdict?.results.map((r) => r.gate)).toEqual(['--max-broken']);
    const missing = io();
    expect((await compare({ base: join(dir, 'nowhere'), head: join(dir, 'pr') }, missing)).exitCode).toBe(2);
    expect(missing.err()).toMatch(/^answer-eval: .*nowhere/);
  }, 60_000);

  it('main(argv, io) is the CLI itself: --version and --help come back on the io, never ending the process', async () => {
    const v = io();
    expect(await main(['--version'], v)).toBe(0);
    expect(v.out()).toMatch(/^\d+\.\d+\.\d+\n$/);
    const h = io();
    expect(await main(['validate', '--help'], h)).toBe(0);
    expect(h.out()).toContain('answer-eval validate');
    const bad = io();
    expect(await main(['nonsense'], bad)).toBe(2);
    expect(bad.err()).toContain('answer-eval');
  });
});
