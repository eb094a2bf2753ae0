import { z } from 'zod';
import { nearest } from '../util/distance.js';
import type { CommandSpec, OptionSpec } from './options.js';

/** Where a team keeps its flags, in this order: the first found in the working directory is read. */
export { CONFIG_FILES } from './find.js';

/** The options of a command, by flag name; a profile holds the same sections. */
export type ConfigSection = Record<string, unknown>;

/** A config file, validated: a section per command, and named profiles of sections. */
export interface Config {
  commands: Record<string, ConfigSection>;
  profiles: Record<string, Record<string, ConfigSection>>;
}

/** The value as a message quotes it: `"abc"`, `3`, `[1,2]`. */
export const shown = (value: unknown): string => {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
};

const kindSays: Record<Exclude<OptionSpec['kind'], 'number' | 'choice'>, string> = {
  string: 'takes a string',
  boolean: 'takes true or false',
  array: 'takes a list of strings',
};

/**
 * A flag's value as the flag checks it, with the flag's own message: a number by its rule (`--concurrency must be a
 * whole number >= 1, got 0`), a choice among its choices, a string, a boolean, a list.
 */
function valueSchema(o: OptionSpec, registry: z.core.$ZodRegistry<Record<string, unknown>>): z.ZodType {
  const flag = `--${o.name}`;
  const got = (input: unknown): string => `got ${typeof input === 'string' ? `the string ${shown(input)}` : shown(input)}`;
  let schema: z.ZodType;
  if (o.kind === 'number') {
    const says = o.rule?.says ?? 'a number';
    schema = z.number({ error: (issue) => `${flag} must be ${says}, ${got(issue.input)}${typeof issue.input === 'string' ? ' (write a number without quotes)' : ''}` }).superRefine((value, ctx) => {
      try {
        o.coerce?.(value);
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: (error as Error).message });
      }
    });
  } else if (o.kind === 'choice') {
    const choices = o.choices!;
    const meant = (input: unknown): string => {
      const near = typeof input === 'string' ? nearest(input, choices) : undefined;
      return near === undefined ? '' : ` (did you mean ${near}?)`;
    };
    schema = z.enum(choices as [string, ...string[]], { error: (issue) => `${flag} must be one of ${choices.join(', ')}, got ${shown(issue.input)}${meant(issue.input)}` });
  } else if (o.kind === 'boolean') {
    schema = z.boolean({ error: (issue) => `${flag} ${kindSays.boolean}, ${got(issue.input)}` });
  } else if (o.kind === 'array') {
    schema = z.array(z.string(), { error: (issue) => `${flag} ${kindSays.array}, ${got(issue.input)}` });
  } else {
    schema = z.string({ error: (issue) => `${flag} ${kindSays.string}, ${got(issue.input)}` });
  }
  const bounds = o.kind === 'number' ? o.rule?.bounds : undefined;
  const described = [o.describe, o.rule ? `(${o.rule.says})` : undefined, o.path ? '(a path, relative to this file)' : undefined].filter(Boolean).join(' ');
  registry.add(schema, {
    ...(described !== '' ? { description: described } : {}),
    ...(bounds?.integer ? { type: 'integer' } : {}),
    ...(bounds ? Object.fromEntries(Object.entries(bounds).filter(([k]) => k !== 'integer')) : {}),
    ...(schemaDefault(o) !== undefined ? { default: schemaDefault(o) } : {}),
  });
  return schema.optional();
}

/** A default an editor may show: one that is the same on every machine (not a path, which may be absolute). */
const schemaDefault = (o: OptionSpec): unknown =>
  typeof o.default === 'number' || typeof o.default === 'boolean' || (typeof o.default === 'string' && !o.path) ? o.default : undefined;

/** The zod schema of a config file and the registry of its descriptions (for the JSON Schema). */
export function configSchema(specs: readonly CommandSpec[]) {
  const registry = z.registry<Record<string, unknown>>();
  const sections: Record<string, z.ZodType> = {};
  for (const command of specs) {
    const section = z.strictObject(Object.fromEntries(command.options.map((o) => [o.name, valueSchema(o, registry)])));
    registry.add(section, { id: command.name, description: `answer-eval ${command.name}: its long options by flag name (a flag given on the command line wins)` });
    sections[command.name] = section.optional();
  }
  const profile = z.strictObject(sections);
  registry.add(profile, { description: 'a profile: sections per command laid over the top-level ones when --profile NAME selects it' });
  const schema = z.strictObject({
    $schema: z.string().optional(),
    ...sections,
    profiles: z.record(z.string(), profile).optional(),
  });
  registry.add(schema, {
    title: 'answer-eval config',
    description: 'answer-eval.config.json: the options of each command by flag name (e.g. "run": {"dataset": "faq.csv", "fail-on": "regression"}), and named profiles selected with --profile. Secrets (the agent code) are never read from it.',
  });
  return { schema, registry };
}

/** The JSON Schema of the config file, for editor completion: schema/config.schema.json. */
export function renderConfigJsonSchema(specs: readonly CommandSpec[]): string {
  const { schema, registry } = configSchema(specs);
  const json = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input', metadata: registry, unrepresentable: 'any' });
  return `${JSON.stringify(json, null, 2)}\n`;
}
