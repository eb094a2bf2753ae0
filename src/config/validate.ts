import type { z } from 'zod';
import { nearest } from '../util/distance.js';
import type { CommandSpec } from './options.js';
import { configSchema, shown, type Config, type ConfigSection } from './schema.js';

/** Keys that would hold the agent code: a secret, never read from a file kept beside the code. */
const SECRET_KEY = /^(?:answer[-_]?)?agent[-_]?code$|^code$|secret|password|token/i;

/** Options a config file does not give: they say what one invocation does, not how a team runs. */
const PER_INVOCATION = new Set(['resume']);

const kebab = (key: string): string => key.replace(/_/g, '-').replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();

/** `run.fail-on`, `profiles.pr.run`, `(top level)`. */
const where = (path: readonly PropertyKey[]): string => (path.length === 0 ? '(top level)' : path.map(String).join('.'));

/** Why `key` is unknown at `path`, and the key meant, when one is near. */
function unknownKey(key: string, path: readonly PropertyKey[], specs: readonly CommandSpec[]): string {
  const at = `${where([...path, key])}: unknown key`;
  if (SECRET_KEY.test(key)) {
    return `${at}: the agent code is a secret and is never read from a config file (it is kept beside the code): set ANSWER_AGENT_CODE, or give --agent-code-file FILE`;
  }
  const command = path.length > 0 ? specs.find((c) => c.name === path.at(-1)) : undefined;
  if (command) {
    const names = command.options.map((o) => o.name);
    const meant = names.find((n) => n === kebab(key)) ?? nearest(key, names) ?? nearest(kebab(key), names);
    if (meant) return `${at} (did you mean "${meant}"?)`;
    const elsewhere = specs.filter((c) => c.options.some((o) => o.name === key)).map((c) => c.name);
    if (elsewhere.length > 0) return `${at}: --${key} is an option of ${elsewhere.join(', ')}, not of ${command.name}`;
    return `${at}: ${command.name} has no --${key} (answer-eval ${command.name} --help lists its options)`;
  }
  const level = path.length === 0 ? [...specs.map((c) => c.name), 'profiles'] : specs.map((c) => c.name);
  const meant = nearest(key, level);
  if (meant) return `${at} (did you mean "${meant}"?)`;
  const owners = specs.filter((c) => c.options.some((o) => o.name === key)).map((c) => c.name);
  const example = `{"${owners[0] ?? 'run'}": {"${key}": ...}}`;
  if (owners.length > 0) return `${at}: options go under their command, e.g. ${example} (--${key} is an option of ${owners.join(', ')})`;
  return `${at}: the keys here are the commands (${specs.map((c) => c.name).join(', ')})${path.length === 0 ? ', "profiles" and "$schema"' : ''}`;
}

/** One line per problem, each naming the key: `run.fail-on: --fail-on must be one of ...`. */
function problems(issues: readonly z.core.$ZodIssue[], specs: readonly CommandSpec[]): string[] {
  return issues.flatMap((issue) => {
    if (issue.code === 'unrecognized_keys') return issue.keys.map((key) => unknownKey(key, issue.path, specs));
    if (issue.code === 'invalid_type' && (issue.expected === 'object' || issue.expected === 'record')) {
      return [`${where(issue.path)}: expected an object of ${issue.path.length === 0 ? 'sections per command' : 'options'} (${issue.path.length === 0 ? '{"run": {...}}' : '{"flag-name": value}'}), got ${shown(issue.input)}`];
    }
    return [`${where(issue.path)}: ${issue.message}`];
  });
}

/** Values a config file must not hold, whatever their option: a URL with credentials or a query string (secrets). */
function secretValue(section: ConfigSection, path: string): string[] {
  return Object.entries(section).flatMap(([key, value]) => {
    if (typeof value !== 'string' || !/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return [];
    try {
      const url = new URL(value);
      if (url.username === '' && url.password === '' && url.search === '') return [];
    } catch {
      return [];
    }
    return [`${path}.${key}: a URL with credentials or a query string is a secret and is never read from a config file: give --${key} on the command line`];
  });
}

/**
 * A parsed config file, validated against the commands' options: every problem is listed, each naming its key
 * (`run.fail-on: --fail-on must be one of regression, significant-regression, got "regresion"`); an unknown key says
 * the key meant. Returns the problems, or the config.
 */
export function validateConfig(data: unknown, specs: readonly CommandSpec[]): { config: Config } | { problems: string[] } {
  // JSON.parse keeps "__proto__" as an own key, but every copy of the object (the schema's too) would take it for the
  // copy's prototype, and the profile would vanish in silence
  const profilesGiven = (data as { profiles?: unknown } | null)?.profiles;
  if (typeof profilesGiven === 'object' && profilesGiven !== null && Object.hasOwn(profilesGiven, '__proto__')) {
    return { problems: ['profiles.__proto__: a profile cannot be named "__proto__" (JavaScript takes that name for an object\'s prototype: the profile would be lost); rename it'] };
  }
  const { schema } = configSchema(specs);
  const parsed = schema.safeParse(data, { reportInput: true });
  if (!parsed.success) return { problems: problems(parsed.error.issues, specs) };
  const { $schema: _, profiles = {}, ...commands } = parsed.data as Record<string, ConfigSection> & { profiles?: Record<string, Record<string, ConfigSection>> };
  const found: string[] = [];
  const check = (sections: Record<string, ConfigSection | undefined>, prefix: string): void => {
    for (const [name, section] of Object.entries(sections)) {
      if (section === undefined) continue;
      for (const key of Object.keys(section).filter((k) => PER_INVOCATION.has(k))) {
        found.push(`${prefix}${name}.${key}: --${key} says what one command line does; give it there, not in a config file`);
      }
      found.push(...secretValue(section, `${prefix}${name}`));
    }
  };
  check(commands, '');
  for (const [name, sections] of Object.entries(profiles)) check(sections, `profiles.${name}.`);
  if (found.length > 0) return { problems: found };
  return { config: { commands: commands as Record<string, ConfigSection>, profiles } };
}
