import { isAbsolute, relative, resolve } from 'node:path';
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
