import type { Argv } from 'yargs';
import type { Command } from './command.js';
import { Parser } from 'yargs/helpers';
import { sectionFor } from '../config/apply.js';
import { configPath } from '../config/find.js';
import { commandSpec, type CommandSpec } from '../config/options.js';
import type { ConfigSection } from '../config/schema.js';
import { ConfigError } from '../errors.js';

/**
 * `run --resume DIR` goes on as the run was started (its journal, run-options.json): from a config file it takes only
 * how the run is carried out, never what it asks or how it is judged.
 */
const RESUMED_RUN_TAKES = new Set(['concurrency', 'rps', 'grace', 'quiet', 'insecure', 'max-consecutive-errors']);

/** The options every command takes: the config file, and its profile. */
export const configOptions = <T>(y: Argv<T>) =>
  y
    .option('config', {
      type: 'string',
      global: true,
      group: 'Config file:',
      describe: 'read the options from this file (default: answer-eval.config.json, .yaml or .yml in the working directory); --no-config reads none',
    })
    .option('profile', { type: 'string', global: true, group: 'Config file:', describe: 'lay this profile of the config file over its sections (e.g. pr, nightly)' });

/** What the config file gives a command line: yargs' config object (a flag given wins) and the line said on stderr. */
export interface AppliedConfig {
  values: ConfigSection;
  said: string | undefined;
}

/** The keys of a command's options given on the command line (by any of their names: -c, --no-guest, --base-url=...). */
function givenOnCommandLine(tokens: readonly string[], spec: CommandSpec): Set<string> {
  const parsed = Parser(tokens as string[], {
    alias: Object.fromEntries(spec.options.map((o) => [o.name, o.aliases])),
    boolean: spec.options.filter((o) => o.kind === 'boolean').map((o) => o.name),
    array: spec.options.filter((o) => o.kind === 'array').map((o) => o.name),
    string: spec.options.filter((o) => o.kind === 'string').map((o) => o.name),
  });
  return new Set(spec.options.map((o) => o.name).filter((name) => Object.hasOwn(parsed, name)));
}

/**
 * The config file's options for the command a command line runs (none for --help and --version, which must work
 * whatever the file holds): the file found or given is read and validated whole (a bad key anywhere is an error
 * naming it), then the command's section, with the --profile one over it.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any command, as in commands/index.ts
export async function configFor(tokens: readonly string[], commands: readonly Command<any>[], cwd: string): Promise<AppliedConfig | undefined> {
  const global = Parser(tokens as string[], { string: ['config', 'profile'], boolean: ['help', 'version'], alias: { help: ['h'] } });
  if (global['help'] === true || global['version'] === true) return undefined;
  const given = global['config'] as string | false | undefined;
  const profile = global['profile'] as string | undefined;
  if (given === '') throw new ConfigError('--config needs a file (or --no-config to read none)');
  if (profile === '') throw new ConfigError('--profile needs the name of a profile of the config file');
  const name = String(global._[0] ?? '');
  const command = commands.find((c) => String(c.command).split(' ')[0] === name);
  if (command === undefined) return undefined; // yargs says what is wrong with the command line
  // no config file, nothing more to load: the reader and its schema load only when there is one
  if ((await configPath(given, cwd)) === undefined) {
    if (profile !== undefined) throw new ConfigError(`--profile ${profile} needs a config file: none of answer-eval.config.json, .yaml, .yml is in ${cwd} (or give --config FILE)`);
    return undefined;
  }
  const specs = commands.map(commandSpec);
  const { loadConfig } = await import('../config/load.js');
  const loaded = (await loadConfig(given, cwd, specs))!;
  const spec = specs.find((s) => s.name === name)!;
  const section = sectionFor(loaded, spec, profile, cwd);
  const onCommandLine = givenOnCommandLine(tokens.slice(tokens.indexOf(name) + 1), spec);
  const resumed = name === 'run' && onCommandLine.has('resume');
  // in the order of the command's --help
  const order = spec.options.map((o) => o.name);
  const values = Object.fromEntries(
    Object.entries(section)
      .filter(([key]) => !onCommandLine.has(key) && (!resumed || RESUMED_RUN_TAKES.has(key)))
      .sort(([a], [b]) => order.indexOf(a) - order.indexOf(b)),
  );
  const from = `${loaded.file}${profile === undefined ? '' : ` (profile ${profile})`}`;
  const keys = Object.keys(values).map((k) => `--${k}`);
  const said = resumed
    ? Object.keys(section).length === 0
      ? undefined
      : `run --resume goes on with the options the run was started with${keys.length > 0 ? `; from ${from} only ${keys.join(', ')}` : `, not those of ${from}`}`
    : keys.length > 0
      ? `options from ${from}: ${keys.join(', ')}`
      : undefined;
  return { values, said };
}
