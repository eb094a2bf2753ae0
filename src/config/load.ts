import { stat } from 'node:fs/promises';
import { dirname, extname } from 'node:path';
import { parse as parseYaml, parseDocument, YAMLError } from 'yaml';
import { ConfigError } from '../errors.js';
import { readBounded, UnreadableFile } from '../util/bounded-read.js';
import { JsonTextError, parseJsonText, printable } from '../util/json-lines.js';
import type { CommandSpec } from './options.js';
import type { Config } from './schema.js';
import { configPath, shortPath } from './find.js';
import { validateConfig } from './validate.js';
import { readFailureMessage } from '../util/read-failure.js';

/** A config file holds a few dozen options: anything larger is not one. */
const MAX_CONFIG_BYTES = 1024 * 1024;

/** A config file read and validated. */
export interface LoadedConfig {
  /** As the messages name it: relative to the working directory when inside it. */
  file: string;
  /** Its directory, absolute: relative paths in it are relative to this. */
  dir: string;
  config: Config;
}

/** `line L, column C` of a character offset. */
function lineColumn(text: string, at: number): string {
  const before = text.slice(0, at);
  const line = before.split('\n').length;
  return `line ${line}, column ${at - before.lastIndexOf('\n')}`;
}

/** The text of a config file parsed, by its extension (.yaml/.yml: YAML, anything else: JSON); a ConfigError names the file and where. */
function parseText(name: string, text: string): unknown {
  if (/^\.ya?ml$/i.test(extname(name))) {
    try {
      // YAML's core schema: plain data, no tags that build objects; aliases are bounded (a "billion laughs" file is refused)
      return parseYaml(text, { maxAliasCount: 100, uniqueKeys: true });
    } catch (error) {
      if (!(error instanceof YAMLError)) throw error;
      const at = error.linePos?.[0];
      throw new ConfigError(`${name}${at ? `:${at.line}:${at.col}` : ''}: not valid YAML: ${printable(error.message.split('\n')[0] ?? '', 200)}`, { cause: error });
    }
  }
  let value: unknown;
  try {
    value = parseJsonText(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    if (!(error instanceof JsonTextError)) throw error;
    const at = /at position (\d+)/.exec(error.message);
    const place = at ? ` (${lineColumn(text, Number(at[1]))})` : '';
    throw new ConfigError(`${name}: not JSON${place}: ${error.message} (a config file is a JSON object: {"run": {"dataset": "faq.csv"}})`, { cause: error });
  }
  // JSON.parse keeps the last of two equal keys in silence; YAML (JSON is a subset of it) names the second
  const repeated = parseDocument(text.replace(/^\uFEFF/, ''), { uniqueKeys: true }).errors.find((e) => e.code === 'DUPLICATE_KEY');
  if (repeated) {
    const at = repeated.linePos?.[0];
    const key = /^"((?:[^"\\]|\\.)*)"/.exec(text.replace(/^\uFEFF/, '').slice(repeated.pos[0]))?.[1];
    throw new ConfigError(`${name}${at ? `:${at.line}:${at.col}` : ''}: the key ${key === undefined ? '' : `"${printable(key, 60)}" `}is given twice in the same object (JSON would keep only the last): give each key once`);
  }
  return value;
}

/**
 * The config file to use: `given` (--config FILE), none (`false`: --no-config), or the one in `cwd`
 * (answer-eval.config.json, .yaml or .yml). Read bounded, parsed and validated against every command's options; a
 * problem is a ConfigError naming the file and each bad key. Undefined when there is none.
 */
export async function loadConfig(given: string | false | undefined, cwd: string, specs: readonly CommandSpec[]): Promise<LoadedConfig | undefined> {
  const path = await configPath(given, cwd);
  if (path === undefined) return undefined;
  const name = typeof given === 'string' ? given : shortPath(path, cwd);
  const info = await stat(path).catch((error: NodeJS.ErrnoException) => {
    throw new ConfigError(`--config ${name}: ${readFailureMessage(error, 'a JSON or YAML config file') ?? error.message}`, { cause: error });
  });
  if (!info.isFile()) throw new ConfigError(`${name}: not a regular file; a config file is a JSON (or YAML) file`);
  const bytes = await readBounded(path, { maxBytes: MAX_CONFIG_BYTES, text: true }).catch((error: unknown) => {
    if (error instanceof UnreadableFile) throw new ConfigError(`${name}${error.line > 0 ? `:${error.line}` : ''}: ${error.message} (not a config file)`, { cause: error });
    throw new ConfigError(`${name}: ${readFailureMessage(error, 'a JSON or YAML config file') ?? (error as Error).message}`, { cause: error });
  });
  const data = parseText(name, bytes.toString('utf8'));
  const checked = validateConfig(data, specs);
  if ('problems' in checked) {
    const shown = checked.problems.slice(0, 20).map((p) => `${name}: ${p}`);
    if (checked.problems.length > 20) shown.push(`${name}: ... and ${checked.problems.length - 20} more`);
    throw new ConfigError(shown.join('\n'));
  }
  return { file: name, dir: dirname(path), config: checked.config };
}
