import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { commands } from '../../src/cli/commands/index.js';
import { renderCliConfigSchema } from '../../src/cli/config-schema.js';
import { defineCommand } from '../../src/cli/command.js';
import { commandSpec, commandSpecs } from '../../src/config/options.js';
import { configSchema, renderConfigJsonSchema } from '../../src/config/schema.js';
import { validateConfig } from '../../src/config/validate.js';
import { numberOption, SHARE } from '../../src/util/numbers.js';
import { pathOption } from '../../src/util/path-option.js';

const committed = readFileSync(fileURLToPath(new URL('../../schema/config.schema.json', import.meta.url)), 'utf8');
const specs = commandSpecs(commands);

describe('schema/config.schema.json', () => {
  it('is what `npm run schema` generates from the commands\' yargs options (run it after adding or changing a flag)', () => {
    expect(committed).toBe(renderCliConfigSchema());
  });

  it('accepts what the zod schema accepts and refuses what it refuses (ajv, draft 2020-12)', () => {
    const validate = new Ajv2020({ strict: false }).compile(JSON.parse(committed) as object);
    const good = {
      $schema: './node_modules/answer-eval/schema/config.schema.json',
      run: { dataset: 'datasets/faq.csv', 'base-url': 'https://answers.example.com', agent: 'support', concurrency: 16, 'min-accuracy': 0.8, quiet: true },
      compare: { 'fail-on': 'regression', 'max-broken': 0 },
      profiles: { pr: { run: { baseline: 'baseline/report.json', 'fail-on': 'regression', format: 'json,junit,md' } }, nightly: { run: { shard: 'auto', rps: 20 } } },
    };
    expect(validate(good)).toBe(true);
    expect('config' in validateConfig(good, specs)).toBe(true);
    for (const bad of [{ run: { 'fail-onn': 'regression' } }, { run: { 'fail-on': 'sometimes' } }, { run: { concurrency: 0 } }, { run: { concurrency: 1.5 } }, { run: { 'min-accuracy': 2 } }, { run: { quiet: 'yes' } }, { dataset: 'x.csv' }, { profiles: { pr: { runs: {} } } }]) {
      expect(validate(bad), JSON.stringify(bad)).toBe(false);
      expect('problems' in validateConfig(bad, specs), JSON.stringify(bad)).toBe(true);
    }
  });
});

describe('the example config file (examples/answer-eval.config.json, which docs/cli.md and the README show)', () => {
  it('is valid, and its profiles shorten the pull-request and nightly jobs', () => {
    const example = (path: string) => readFileSync(fileURLToPath(new URL(`../../examples/${path}`, import.meta.url)), 'utf8');
    const checked = validateConfig(JSON.parse(example('answer-eval.config.json')), specs);
    expect('config' in checked ? Object.keys(checked.config.profiles) : checked.problems).toEqual(['pr', 'nightly']);
    expect(example('github/answer-eval-pr.yml')).toContain('run: npx answer-eval run --profile pr\n');
    expect(example('github/answer-eval-nightly.yml')).toContain('run: npx answer-eval run --profile nightly\n');
  });
});

describe('the config keys are the commands\' long options', () => {
  it('every long option of every command, by its flag name; no positional, alias, help or version', () => {
    const run = specs.find((s) => s.name === 'run')!.options.map((o) => o.name);
    expect(run).toEqual(expect.arrayContaining(['dataset', 'base-url', 'agent-code-file', 'concurrency', 'fail-on', 'min-accuracy', 'baseline', 'quarantine', 'oos-share', 'out', 'format', 'insecure']));
    expect(run).not.toEqual(expect.arrayContaining(['d', 'c', 'help', 'version']));
    const compare = specs.find((s) => s.name === 'compare')!.options.map((o) => o.name);
    expect(compare).not.toContain('base');
    expect(compare).toContain('fail-on');
    expect(specs.map((s) => s.name)).toEqual(commands.map((c) => String(c.command).split(' ')[0]));
  });

  it('a flag added to a command is a key of the schema, checked as the flag is, with nothing else to change', () => {
    const command = defineCommand({
      command: 'probe <dir>',
      describe: 'a command made up for this test',
      builder: (y) =>
        y
          .positional('dir', { type: 'string', demandOption: true })
          .option('ask-for-metadata', { type: 'boolean', describe: 'a new flag' })
          .option('share', { ...numberOption('share', SHARE), describe: 'a share' })
          .option('mode', { choices: ['a', 'b'] as const })
          .option('kb', { ...pathOption, alias: 'k' }),
      handler: async () => {},
    });
    const spec = commandSpec(command);
    expect(spec.options.map((o) => [o.name, o.kind, o.path])).toEqual([
      ['ask-for-metadata', 'boolean', false],
      ['share', 'number', false],
      ['mode', 'choice', false],
      ['kb', 'string', true],
    ]);
    const json = JSON.parse(renderConfigJsonSchema([spec])) as { $defs: { probe: { properties: Record<string, unknown> } } };
    expect(json.$defs.probe.properties['ask-for-metadata']).toEqual({ type: 'boolean', description: 'a new flag' });
    expect(json.$defs.probe.properties['share']).toEqual({ type: 'number', description: 'a share (a share between 0 and 1)', minimum: 0, maximum: 1 });
    const { schema } = configSchema([spec]);
    expect(schema.safeParse({ probe: { 'ask-for-metadata': true, share: 0.5, mode: 'b', kb: 'kb.jsonl' } }).success).toBe(true);
    expect(validateConfig({ probe: { share: 1.5 } }, [spec])).toEqual({ problems: ['probe.share: --share must be a share between 0 and 1, got 1.5'] });
  });
});
