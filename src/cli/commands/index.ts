import type { Command } from '../command.js';
import { compareCommand } from './compare.js';
import { exportCommand } from './export.js';
import { labelCommand } from './label.js';
import { mergeCommand } from './merge.js';
import { reportCommand } from './report.js';
import { rescoreCommand } from './rescore.js';
import { runCommand } from './run.js';
import { sampleCommand } from './sample.js';
import { serveCommand } from './serve.js';
import { trendCommand } from './trend.js';
import { validateCommand } from './validate.js';
import { viewCommand } from './view.js';

/** Every command of the CLI; adding one = one file + one line here. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const commands: Command<any>[] = [runCommand, serveCommand, validateCommand, compareCommand, reportCommand, exportCommand, mergeCommand, trendCommand, rescoreCommand, viewCommand, labelCommand, sampleCommand];
