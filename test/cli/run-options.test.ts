import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import yargs from 'yargs';
import { describe, expect, it } from 'vitest';
import { runCommand } from '../../src/cli/commands/run.js';
import { KEPT, KEPT_DEFAULTS, keepRunOptions, resumeRunOptions, RUN_OPTIONS_FILE } from '../../src/job/run/kept-options.js';
import { tempDir } from '../helpers/tmp.js';

const camel = (flag: string): string => flag.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
const dir = tempDir('answer-eval-run-options-');

describe('run-options.json: what a resumed run is finished with', () => {
  it('keeps every option of the run command that decides how a run is finished, with the command\'s defaults', () => {
    // yargs keeps its option groups and defaults, untyped
    const y = (runCommand.builder as (y: ReturnType<typeof yargs>) => unknown)(yargs([])) as { getGroups(): Record<string, string[]>; getOptions(): { default: Record<string, unknown> } };
    const groups = y.getGroups();
    const finishing = [...groups['Gates:']!, ...groups['Compare:']!, ...groups['Threshold advice:']!, 'format'].map(camel);
    expect(Object.keys(KEPT).sort()).toEqual(finishing.sort());
    const defaults = y.getOptions().default;
    for (const key of finishing) expect([key, KEPT_DEFAULTS[key as keyof typeof KEPT]]).toEqual([key, defaults[key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)]]);
  });

  it('keeps what was given, takes back what is not given again, and one floor objective replaces the other', () => {
    keepRunOptions(dir, { minAccuracy: 0.9, alpha: 0.05, baseline: 'base', force: true, oosShare: 0.3, format: 'all' });
    expect(JSON.parse(readFileSync(join(dir, RUN_OPTIONS_FILE), 'utf8'))).toEqual({ minAccuracy: 0.9, baseline: resolve('base'), force: true, oosShare: 0.3 });

    const again: Record<string, unknown> = { minAccuracy: 0.95, alpha: 0.05, keepAccuracy: 2, format: 'all' };
    expect(resumeRunOptions(dir, again)).toEqual([`--baseline ${resolve('base')}`, '--force true']);
    expect(again).toMatchObject({ minAccuracy: 0.95, baseline: resolve('base'), force: true, keepAccuracy: 2 });
    expect(again['oosShare']).toBeUndefined();
  });
});
