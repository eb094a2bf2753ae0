import type { ArgumentsCamelCase, Argv, CommandModule } from 'yargs';

/** A typed yargs command: the handler sees the options its builder declared, camel-cased. */
export function defineCommand<A>(def: {
  command: string;
  describe: string;
  builder: (y: Argv) => Argv<A>;
  handler: (argv: ArgumentsCamelCase<A>) => Promise<void>;
}): CommandModule<object, A> {
  return def;
}
