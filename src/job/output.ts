import { commandData, commandProperty, safeLine, safeLines } from '../util/terminal.js';
import type { JobIo } from './io.js';

/**
 * Everything answer-eval prints goes through an Output, made safe for a terminal and a CI log line by line
 * (src/util/terminal.ts): data in a message cannot move the cursor, recolour the terminal, hide or reorder text, or
 * become a GitHub Actions workflow command. test/meta/output.test.ts keeps every other file from writing to the
 * console. The one exception is answer-eval's own workflow command, `annotate`.
 */
export interface Output {
  /** On stdout. */
  print(text: string): void;
  /** On stderr (warnings, errors, progress). */
  printError(text: string): void;
  /** Redraws the live progress line of a terminal: the cursor control is answer-eval's, the line is made safe. */
  redraw(line: string): void;
  /** Clears the live progress line. */
  clearLine(): void;
  /** A workflow command of answer-eval's own on stdout (see workflowCommand). */
  annotate(command: string, properties: Record<string, string>, message: string): void;
}

/** The Output writing to a job's io. */
export const outputOf = ({ stdout, stderr }: Pick<JobIo, 'stdout' | 'stderr'>): Output => ({
  print: (text) => void stdout.write(safeLines(text)),
  printError: (text) => void stderr.write(safeLines(text)),
  redraw: (line) => void stderr.write(`\r\x1b[K${safeLine(line)}`),
  clearLine: () => void stderr.write('\r\x1b[K'),
  annotate: (command, properties, message) => void stdout.write(`${workflowCommand(command, properties, message)}\n`),
});

/**
 * A GitHub Actions workflow command of answer-eval's own on stdout, e.g. `::error title=answer-eval gate::message`,
 * its property values and message escaped as GitHub reads them (a property cannot end early, a message cannot start
 * a second command).
 */
export function workflowCommand(command: string, properties: Record<string, string>, message: string): string {
  const props = Object.entries(properties).map(([k, v]) => `${k}=${commandProperty(v)}`).join(',');
  return `::${command}${props === '' ? '' : ` ${props}`}::${commandData(message)}`;
}
