import { commandData, commandProperty, safeLine, safeLines } from '../util/terminal.js';
import { currentIo } from './io.js';

/**
 * Everything answer-eval prints goes through here, made safe for a terminal and a CI log line by line
 * (src/util/terminal.ts): data in a message cannot move the cursor, recolour the terminal, hide or reorder text, or
 * become a GitHub Actions workflow command. test/meta/output.test.ts keeps every other file from writing to the
 * console. The one exception is answer-eval's own workflow command, `annotate`. The text goes to the streams of the
 * job it is printed in (src/job/io.ts): the process's under the CLI, a program's own under the API.
 */
export const print = (text: string): void => void currentIo().stdout.write(safeLines(text));

/** On stderr (warnings, errors, progress), made safe as `print` does. */
export const printError = (text: string): void => void currentIo().stderr.write(safeLines(text));

/** Redraws the live progress line of a terminal: the cursor control is answer-eval's, the line is made safe. */
export const redraw = (line: string): void => void currentIo().stderr.write(`\r\x1b[K${safeLine(line)}`);

/** Clears the live progress line. */
export const clearLine = (): void => void currentIo().stderr.write('\r\x1b[K');

/**
 * A GitHub Actions workflow command of answer-eval's own on stdout, e.g. `::error title=answer-eval gate::message`,
 * its property values and message escaped as GitHub reads them (a property cannot end early, a message cannot start
 * a second command).
 */
export function workflowCommand(command: string, properties: Record<string, string>, message: string): string {
  const props = Object.entries(properties).map(([k, v]) => `${k}=${commandProperty(v)}`).join(',');
  return `::${command}${props === '' ? '' : ` ${props}`}::${commandData(message)}`;
}

/** Prints a workflow command of answer-eval's own (see workflowCommand). */
export const annotate = (command: string, properties: Record<string, string>, message: string): void =>
  void currentIo().stdout.write(`${workflowCommand(command, properties, message)}\n`);
