import yargs, { type CommandModule } from 'yargs';
import type { Command } from './command.js';
import { AnswerEvalError, ConfigError } from '../errors.js';
import { isNumberArgMessage } from '../util/numbers.js';
import { TOOL_VERSION } from '../version.js';
import { commands } from './commands/index.js';
import { EXIT_CODES_HELP } from './exit-codes.js';
import { datasetHint, optionNamesOf, unknownOptionMessage } from './suggest.js';
import { isDatasetName } from '../model/dataset-names.js';
import { configOptions, type AppliedConfig } from './config.js';
import type { JobIo } from '../job/io.js';

/**
 * The yargs parser of a command line: every command with its options, the config file's values under the flags
 * given, strict (an unknown option is a usage error naming the nearest one). main.ts parses with it; a test may give
 * the same commands with handlers that do nothing, to check a command line without running it.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any command, as in commands/index.ts
export function cliParser(argv: string[], config: AppliedConfig | undefined, io: JobIo, done: (code: number) => void, modules: readonly Command<any>[] = commands) {
  let cli = configOptions(yargs(argv))
    .scriptName('answer-eval')
    .version(TOOL_VERSION)
    .strict()
    .demandCommand(1, 'name a command: answer-eval <command> --help')
    .recommendCommands()
    .example('answer-eval run', 'the sample questions against the embedded engine; reports in reports/<timestamp>/')
    .example('answer-eval run -d faq.csv --base-url https://answers.example.com --agent support', 'a question set against a service (agent code in ANSWER_AGENT_CODE)')
    .example('answer-eval compare main/report.json reports/pr-17 --fail-on regression', 'gate a pull request on a baseline')
    .example('answer-eval view', 'every run under reports/ on a local web page')
    .epilogue(`Options can be kept in answer-eval.config.json (--config FILE, --profile NAME): see docs/cli.md, "Config file", and examples/answer-eval.config.json.\n\n${EXIT_CODES_HELP}`)
    .wrap(Math.min(110, io.stdout.columns || 100))
    .middleware((a) => {
      const refused = afterDashes(argv) ?? repeated(a);
      if (refused !== undefined) throw usageError(refused, argv, modules);
    }, true)
    .fail((msg, err) => {
      if (err instanceof AnswerEvalError) throw err;
      if (err && isNumberArgMessage(err.message)) throw new ConfigError(err.message, { cause: err });
      if (err && err.name !== 'YError') throw err;
      throw usageError(msg ?? err?.message ?? 'usage error', argv, modules);
    });
  if (config !== undefined) cli = cli.config(config.values);
  skipHelpCache(cli);
  // a command's handler returns its exit code (or nothing: 0); one that fails throws, and main() says why
  for (const command of modules) {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any command, as in commands/index.ts
    const module: CommandModule<any, any> = { ...command, handler: async (a) => done((await command.handler(a, io))?.exitCode ?? 0) };
    cli = cli.command(module);
  }
  return cli;
}

/** Positionals that take several values; any other option given twice reaches yargs as an array. */
const LISTS = new Set(['_', '--', 'dirs']);

/**
 * An option given twice (`--fail-on regression --fail-on regression`, `-d a.csv -d b.csv`) is a usage error: yargs
 * would pass an array where one value is expected, and a gate compared with `=== 'regression'` would never fire.
 */
function repeated(argv: Record<string, unknown>): string | undefined {
  const arrays = Object.entries(argv).filter((e): e is [string, unknown[]] => Array.isArray(e[1]) && !LISTS.has(e[0]) && !/[A-Z]/.test(e[0]));
  // an alias holds the same values: name the long one
  const [name, values] = arrays.sort((x, y) => y[0].length - x[0].length)[0] ?? [];
  return name === undefined ? undefined : `--${name} was given ${values!.length} times (${values!.join(', ')}): give it once`;
}

/** yargs takes what follows `--` as positionals and strict mode lets them by: `run -- -d faq.csv` ran the sample set. */
function afterDashes(tokens: readonly string[]): string | undefined {
  const at = tokens.indexOf('--');
  if (at < 0) return undefined;
  const after = tokens.slice(at + 1);
  const what = after.length === 0 ? 'nothing follows it' : `unexpected argument${after.length === 1 ? '' : 's'} after it: ${after.map((t) => `"${t}"`).join(', ')}`;
  return `"--" ends the options, and no command takes arguments after it (${what})`;
}

/** A usage error (exit 2) pointing at the command's help; an unknown option names the nearest known one. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any command, as in commands/index.ts
function usageError(message: string, argv: readonly string[], modules: readonly Command<any>[]): AnswerEvalError {
  const name = argv.find((t) => !t.startsWith('-'));
  const command = modules.find((c) => String(c.command).split(' ')[0] === name);
  const guess = /^Did you mean (\S+)\?$/.exec(message)?.[1]; // yargs' recommendCommands
  const unknown =
    command === undefined ? (guess === undefined ? undefined : `unknown command "${name}" (did you mean ${guess}?)`) : unknownOptionMessage(message, argv, optionNamesOf(command));
  // `validate faq.csv`: yargs misses --dataset before it sees the stray file
  const stray = (t: string, i: number): boolean => isDatasetName(t) && !t.startsWith('-') && !(argv[i - 1] ?? '').startsWith('-');
  const file = message === 'Missing required argument: dataset' ? argv.find((t, i) => i > argv.indexOf(name!) && stray(t, i)) : undefined;
  return new AnswerEvalError(`${unknown ?? message}${datasetHint(file)}\nSee answer-eval ${command === undefined ? '' : `${name} `}--help.`, 'USAGE', 2);
}

/**
 * yargs renders the whole help text before it runs a command's handler, to show it if the handler fails; answer-eval
 * never shows it then (a failure says what is wrong and points at --help), and rendering it costs a tenth of a
 * second at every start. `--help` still renders it, when asked.
 */
function skipHelpCache(cli: object): void {
  const usage = (cli as { getInternalMethods?: () => { getUsageInstance?: () => { cacheHelpMessage?: () => void } } }).getInternalMethods?.().getUsageInstance?.();
  if (usage?.cacheHelpMessage) usage.cacheHelpMessage = () => {};
}
