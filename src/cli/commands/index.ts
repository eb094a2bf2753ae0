import type { CommandModule } from 'yargs';
import { compareCommand } from './compare.js';
import { runCommand } from './run.js';

/** Every command of the CLI; adding one = one file + one line here. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const commands: CommandModule<any, any>[] = [runCommand, compareCommand];
