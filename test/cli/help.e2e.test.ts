import { describe, expect, it } from 'vitest';
import { commands } from '../../src/cli/commands/index.js';
import { runCli } from '../helpers/cli.js';

// Every command's --help ends with examples a user can copy (and so does answer-eval --help).

const names = commands.map((c) => String(c.command).split(' ')[0]!);

describe('--help', () => {
  it.each(names)('answer-eval %s --help has examples of that command', async (name) => {
    const res = await runCli([name, '--help']);
    expect(res.code).toBe(0);
    const examples = res.stdout.split('\nExamples:\n')[1];
    expect(examples, `${name} --help has no Examples:`).toBeDefined();
    expect(examples).toMatch(new RegExp(`^  answer-eval ${name}\\b`, 'm'));
  });

  it('answer-eval --help lists every command and has examples', async () => {
    const res = await runCli(['--help']);
    expect(res.code).toBe(0);
    for (const name of names) expect(res.stdout).toContain(`answer-eval ${name}`);
    expect(res.stdout).toContain('\nExamples:\n  answer-eval run ');
  });
});
