import { stat } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { ConfigError } from '../errors.js';

/** The names a config file is found by in the working directory. */
export const CONFIG_FILES = ['answer-eval.config.json', 'answer-eval.config.yaml', 'answer-eval.config.yml'] as const;

/** `path` as a message names it: relative to `cwd` when inside it. */
export const shortPath = (path: string, cwd: string): string => {
  const rel = relative(cwd, path);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? rel : path;
};

/** The config file of the working directory, if any; two of them are a ConfigError (which one is meant?). */
export async function findConfig(cwd: string): Promise<string | undefined> {
  const found: string[] = [];
  for (const name of CONFIG_FILES) {
    if (await stat(join(cwd, name)).then(() => true, () => false)) found.push(name);
  }
  if (found.length > 1) throw new ConfigError(`${found.join(' and ')} are both in ${cwd}: keep one of them (or choose with --config FILE)`);
  return found[0] === undefined ? undefined : join(cwd, found[0]);
}

/** The config file a command line reads: `--config FILE`, the working directory's, or none (`--no-config`). */
export const configPath = async (given: string | false | undefined, cwd: string): Promise<string | undefined> =>
  given === false ? undefined : given === undefined ? findConfig(cwd) : resolve(cwd, given);
