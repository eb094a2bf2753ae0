import { realpathSync } from 'node:fs';
import { isAbsolute, parse, relative, resolve } from 'node:path';
import { ConfigError } from '../errors.js';
import { nearest } from '../util/distance.js';
import type { LoadedConfig } from './load.js';
import type { CommandSpec } from './options.js';
import type { ConfigSection } from './schema.js';

/** A path of the config file, relative to its directory, as the command line would give it from `cwd`. */
function fromConfigDir(value: string, dir: string, cwd: string): string {
  if (value === '-' || isAbsolute(value)) return value; // `-`: standard input
  const rel = relative(cwd, resolve(dir, value));
  return rel === '' ? '.' : isAbsolute(rel) ? resolve(dir, value) : rel;
}

/** A path with its links resolved, as far as it exists (the part that does not is kept as written). */
function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    const up = resolve(path, '..');
    return up === path ? path : resolve(real(up), relative(up, path));
  }
}

/**
 * Why an output directory a config file names cannot be one, or undefined: its own directory, an ancestor of it, or
 * the root of the file system. A run writes journal.jsonl, report.json, results.csv... there, beside (or above) the
 * project's files and the config file itself; checked in, such a value would do so on every machine that runs it.
 */
export function outProblem(value: string, dir: string): string | undefined {
  const out = real(resolve(dir, value));
  const own = real(dir);
  if (out === parse(out).root) return 'is the root of the file system';
  if (out === own) return 'is the directory of the config file';
  const up = relative(out, own);
  if (!up.startsWith('..') && !isAbsolute(up)) return 'is an ancestor of the directory of the config file';
  return undefined;
}

/**
 * The options a config file gives `command`: its section, with the profile's section for it laid over it, paths
 * made relative to the working directory (a config file gives them relative to itself). A profile the file lacks is
 * a ConfigError naming those it has.
 */
export function sectionFor(loaded: LoadedConfig, command: CommandSpec, profile: string | undefined, cwd: string): ConfigSection {
  const { config, file, dir } = loaded;
  if (profile !== undefined && !Object.hasOwn(config.profiles, profile)) {
    const names = Object.keys(config.profiles);
    const meant = nearest(profile, names);
    throw new ConfigError(
      `--profile ${profile}: ${file} has no such profile (${names.length === 0 ? 'it has none: add "profiles": {"' + profile + '": {"run": {...}}}' : `it has ${names.join(', ')}`})${meant ? `; did you mean ${meant}?` : ''}`,
    );
  }
  const merged: ConfigSection = { ...config.commands[command.name], ...(profile === undefined ? {} : config.profiles[profile]![command.name]) };
  for (const option of command.options) {
    const value = merged[option.name];
    if (option.path && typeof value === 'string') merged[option.name] = fromConfigDir(value, dir, cwd);
  }
  return merged;
}
