import yargs, { type CommandModule } from 'yargs';
import { isDatasetName } from '../model/dataset-names.js';
import { nearest } from '../util/distance.js';

export { nearest };

/** ` (a question set is given as --dataset FILE)` for a file typed without --dataset; empty without one. */
export const datasetHint = (file: string | undefined): string => (file === undefined ? '' : ` (a question set is given as --dataset ${file})`);

/**
 * yargs' `Unknown argument(s): a, b` message, the command line, and the command's options → one line naming each
 * unknown option with the nearest known one, and each stray argument, pointing a file to --dataset where it takes one.
 */
export function unknownOptionMessage(message: string, tokens: readonly string[], options: readonly string[]): string | undefined {
  const listed = /^Unknown arguments?: (.+)$/.exec(message)?.[1];
  if (listed === undefined) return undefined;
  const names = listed.split(', ');
  const typed = (name: string): string | undefined =>
    tokens.find((t) => t === `--${name}` || t === `-${name}` || t.startsWith(`--${name}=`) || t === `--no-${name}`)?.replace(/=.*$/, '');
  const flags: string[] = [];
  const strays: string[] = [];
  // yargs lists a camel-cased copy of each kebab-case name
  for (const name of names.filter((name) => !names.some((other) => other !== name && other.includes('-') && camel(other) === name))) {
    const flag = typed(name);
    if (flag === undefined) {
      strays.push(name);
      continue;
    }
    const guess = name.length > 1 ? nearest(name, options) : undefined;
    flags.push(guess === undefined ? flag : `${flag} (did you mean --${guess}?)`);
  }
  const said: string[] = [];
  if (flags.length > 0) said.push(`unknown option${flags.length === 1 ? '' : 's'}: ${flags.join(', ')}`);
  if (strays.length > 0) {
    const file = options.includes('dataset') ? strays.find(isDatasetName) : undefined;
    said.push(`unexpected argument${strays.length === 1 ? '' : 's'}: ${strays.map((s) => `"${s}"`).join(', ')}${datasetHint(file)}`);
  }
  return said.join('; ');
}

const camel = (kebab: string): string => kebab.replace(/-+([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** The long option names a command declares (its builder run on an empty command line), with help and version. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any command, as in commands/index.ts
export function optionNamesOf(command: Pick<CommandModule<any, any>, 'builder'>): string[] {
  const builder = command.builder;
  const y = yargs([]);
  const built = typeof builder === 'function' ? builder(y) : builder ? y.options(builder) : y;
  // getOptions() is public in yargs but missing from its type definitions
  const { key } = (built as unknown as { getOptions(): { key: Record<string, unknown> } }).getOptions();
  return Object.keys(key).filter((name) => name.length > 1);
}
