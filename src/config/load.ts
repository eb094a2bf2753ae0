import { stat } from 'node:fs/promises';
import { dirname, extname } from 'node:path';
import { isAlias, LineCounter, parseDocument, visit, YAMLError } from 'yaml';
import { ConfigError } from '../errors.js';
import { readBounded, UnreadableFile } from '../util/bounded-read.js';
import { JsonTextError, parseJsonText, printable } from '../util/json-lines.js';
import type { CommandSpec } from './options.js';
import type { Config } from './schema.js';
import { configPath, shortPath } from './find.js';
import { validateConfig } from './validate.js';
import { readFailureMessage } from '../util/read-failure.js';
import { outProblem } from './out-dir.js';

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

/**
 * The most aliases (`*name`) a YAML config file may resolve, each counted by what it copies: a config holds a few dozen
 * options, so more is an "alias bomb" (a billion laughs: a few lines that expand to a gigabyte), refused before it
 * expands.
 */
const MAX_ALIASES = 100;

/** A YAML library message without the place it appends (the ConfigError names the place first). */
const yamlMessage = (message: string): string => printable((message.split('\n')[0] ?? '').replace(/ at line \d+, column \d+:?$/, ''), 200);

/** A YAML config file's text as data (YAML's core schema: plain data, no tags that build objects), or a ConfigError naming the file and the place. */
function parseYamlText(name: string, text: string): unknown {
  const lines = new LineCounter();
  const at = (offset: number): string => {
    const { line, col } = lines.linePos(offset);
    return `${name}:${line}:${col}`;
  };
  try {
    const doc = parseDocument(text, { uniqueKeys: true, lineCounter: lines });
    const error = doc.errors[0];
    if (error) throw new ConfigError(`${at(error.pos[0])}: not valid YAML: ${yamlMessage(error.message)}`);
    // a tag the core schema does not know (`!!js/function`) is read as text with a warning the library would print
    const warning = doc.warnings[0];
    if (warning) throw new ConfigError(`${at(warning.pos[0])}: not plain YAML data: ${yamlMessage(warning.message)} (a config file holds plain values: no tags)`);
    const anchors = new Set<string>();
    const anchorOf = (node: unknown): string | undefined => (node as { anchor?: unknown } | null)?.anchor as string | undefined;
    visit(doc, (_, node, path) => {
      if (isAlias(node)) {
        const alias = printable(node.source, 60);
        if (!anchors.has(node.source)) throw new ConfigError(`${at(node.range?.[0] ?? 0)}: the alias *${alias} names no anchor (an anchor &${alias} must come before it)`);
        if (path.some((above) => anchorOf(above) === node.source)) throw new ConfigError(`${at(node.range?.[0] ?? 0)}: the alias *${alias} stands inside the value &${alias} names (a circle, which no option can hold)`);
      }
      const anchor = anchorOf(node);
      if (typeof anchor === 'string') anchors.add(anchor);
    });
    // yaml counts one more than the aliases resolved: 101 lets 100 through
    return doc.toJS({ maxAliasCount: MAX_ALIASES + 1 });
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    if (error instanceof YAMLError) throw new ConfigError(`${name}: not valid YAML: ${yamlMessage(error.message)}`);
    if (error instanceof ReferenceError && /alias count/i.test(error.message)) {
      throw new ConfigError(`${name}: its aliases (*name) expand to more than ${MAX_ALIASES} copies of anchored values, as an "alias bomb" (a billion laughs) does: a config file needs few; write the values out`);
    }
    if (error instanceof RangeError) throw new ConfigError(`${name}: nested too deep to be read (a config file nests a few levels)`);
    throw error;
  }
}

/** The text of a config file parsed, by its extension (.yaml/.yml: YAML, anything else: JSON); a ConfigError names the file and where. */
function parseText(name: string, text: string): unknown {
  if (/^\.ya?ml$/i.test(extname(name))) return parseYamlText(name, text);
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

/** Every `out` of the file's sections (and its profiles') that is its own directory, an ancestor of it, or the root (outProblem). */
function outProblems(config: Config, dir: string): string[] {
  const sections = [
    ...Object.entries(config.commands).map(([command, section]) => [command, section] as const),
    ...Object.entries(config.profiles).flatMap(([profile, commands]) => Object.entries(commands).map(([command, section]) => [`profiles.${profile}.${command}`, section] as const)),
  ];
  return sections.flatMap(([key, section]) => {
    const out = section?.['out'];
    const why = typeof out === 'string' ? outProblem(out, dir) : undefined;
    const command = key.split('.').at(-1)!;
    return why === undefined ? [] : [`${key}.out ${JSON.stringify(out)} ${why}: reports and the journal would be written beside the project's files; give them a directory of their own, e.g. "reports/${command}"`];
  });
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
  const outs = outProblems(checked.config, dirname(path)).map((p) => `${name}: ${p}`);
  if (outs.length > 0) throw new ConfigError(outs.join('\n'));
  return { file: name, dir: dirname(path), config: checked.config };
}
