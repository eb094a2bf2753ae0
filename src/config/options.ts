import yargs, { type Argv, type CommandModule } from 'yargs';
import { ruleOf, type NumberRule } from '../util/numbers.js';
import { isPathArg } from '../util/path-option.js';

/** A long option of a command, as its yargs builder declares it: what a config file may give for it. */
export interface OptionSpec {
  /** The flag's name, e.g. `base-url`: the config key. */
  name: string;
  kind: 'string' | 'boolean' | 'number' | 'array' | 'choice';
  describe?: string;
  choices?: readonly string[];
  /** A numeric option's rule (numberArg): its message is the flag's. */
  rule?: NumberRule;
  /** A numeric option's check, as the flag runs it (numberArg): throws the flag's message. */
  coerce?: (value: unknown) => unknown;
  /** A path (pathOption): a config file gives it relative to itself. */
  path: boolean;
  default?: unknown;
  /** Single-letter aliases (`-d`), for reading a command line. */
  aliases: string[];
}

/** A command of the CLI as the config file sees it: its name and its long options. */
export interface CommandSpec {
  name: string;
  options: OptionSpec[];
}

type Settings = Record<string, unknown>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any command, as in cli/commands/index.ts
type AnyCommand = Pick<CommandModule<any, any>, 'command' | 'builder'>;

/** The positional names of a yargs command string: `compare <base> <head>` → base, head. */
const positionals = (command: string): string[] => [...command.matchAll(/[<[]([^>\]. ]+)(?:\.\.)?[>\]]/g)].map((m) => m[1]!);

/**
 * The long options of a command, read from its yargs builder (run on an empty command line, each `.option()`
 * recorded as it is declared): a flag added to a command is a config key with nothing else to change.
 */
export function commandSpec(command: AnyCommand): CommandSpec {
  const declared = String(command.command);
  const name = declared.split(' ')[0]!;
  const skip = new Set([...positionals(declared), 'help', 'version']);
  const recorded = new Map<string, Settings>();
  const y = yargs([]);
  const option = y.option.bind(y);
  // yargs' option({...}), options() and positional() all come here
  (y as { option: unknown }).option = (key: string | Record<string, Settings>, settings?: Settings) => {
    if (typeof key === 'string') recorded.set(key, { ...recorded.get(key), ...settings });
    return option(key as string, settings as Settings);
  };
  const builder = command.builder;
  if (typeof builder === 'function') builder(y as Argv);
  else if (builder) y.options(builder);
  const specs: OptionSpec[] = [];
  for (const [key, s] of recorded) {
    if (skip.has(key) || key.length < 2 || s['hidden'] === true) continue;
    specs.push(specOf(key, s));
  }
  return { name, options: specs };
}

function specOf(name: string, s: Settings): OptionSpec {
  const rule = ruleOf(s['coerce']);
  const choices = s['choices'] as readonly string[] | undefined;
  const kind: OptionSpec['kind'] = choices ? 'choice' : rule ? 'number' : s['array'] === true || s['type'] === 'array' ? 'array' : s['type'] === 'boolean' ? 'boolean' : s['type'] === 'number' ? 'number' : 'string';
  const alias = s['alias'];
  const describe = (s['describe'] ?? s['description'] ?? s['desc']) as string | undefined;
  return {
    name,
    kind,
    ...(describe !== undefined ? { describe } : {}),
    ...(choices ? { choices } : {}),
    ...(rule ? { rule, coerce: s['coerce'] as (value: unknown) => unknown } : {}),
    path: isPathArg(s['coerce']),
    ...('default' in s ? { default: s['default'] } : {}),
    aliases: (Array.isArray(alias) ? alias : alias === undefined ? [] : [alias]).map(String),
  };
}

/** Every command's spec, in the order given. */
export const commandSpecs = (commands: readonly AnyCommand[]): CommandSpec[] => commands.map(commandSpec);
